import { describe, expect, it } from "vitest";
import { matchesPath } from "./route-match.js";

describe("matchesPath", () => {
  it("matches literal paths, :params and a trailing wildcard", () => {
    expect(matchesPath("/api/por", "/api/por")).toBe(true);
    expect(matchesPath("/api/por", "/api/por/x")).toBe(false);
    expect(matchesPath("/api/por/signed/:hash", "/api/por/signed/0xab")).toBe(true);
    expect(matchesPath("/api/por/signed/:hash", "/api/por/signed")).toBe(false);
    expect(matchesPath("/paid/*", "/paid/reserves")).toBe(true);
    expect(matchesPath("/graphql", "/graphql")).toBe(true);
  });
  it("never treats the catch-all itself as a known path, and escapes regex characters", () => {
    expect(matchesPath("*", "/anything")).toBe(false);
    expect(matchesPath("/api/openapi.json", "/api/openapiXjson")).toBe(false);
  });
});
