import { readFileSync } from "node:fs";
import { join } from "node:path";
import { BASE_OPERATOR_REGISTRY_FILE } from "@kusd/config/node";
import { describe, expect, it } from "vitest";

// packages/config/networks/base/ carries the operator's registry file as published (MIT, public facts only), so
// that `npm test` and a mainnet deployment need no ../shared. It must stay byte-equal to it.
describe("the operator's registry file", () => {
  it("is committed exactly as the operator publishes it", () => {
    const published = readFileSync(
      join(import.meta.dirname, "..", "..", "..", "shared", "reference", "base-mainnet", "deployments-8453.json"),
      "utf8",
    );
    expect(readFileSync(BASE_OPERATOR_REGISTRY_FILE, "utf8")).toBe(published);
  });
});
