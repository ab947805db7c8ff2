import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { allowedMethods, methodNotAllowed } from "./method-not-allowed.js";

function app() {
  const a = new Hono()
    .get("/api/por", (c) => c.json({}))
    .get("/api/por/signed/:hash", (c) => c.json({}))
    .post("/api/por/signed", (c) => c.json({}))
    .get("/api/por/signed", (c) => c.json({}))
    .on(["GET", "POST", "OPTIONS"], "/graphql", (c) => c.json({}))
    .get("/paid/reserves", (c) => c.json({}))
    .post("/paid/instant-read", (c) => c.json({}));
  a.all(
    "*",
    methodNotAllowed(a, {
      hostRoutes: [{ method: "GET", path: "/metrics" }],
      refusesHead: (path) => path === "/paid/reserves",
    }),
  );
  return a;
}

describe("405 with Allow", () => {
  it("names every method of a known path, HEAD beside GET", async () => {
    const cases: [string, string, string][] = [
      ["POST", "/api/por", "GET, HEAD"],
      ["DELETE", "/api/por/signed/0xab", "GET, HEAD"],
      ["PUT", "/api/por/signed", "POST, GET, HEAD"],
      ["DELETE", "/graphql", "GET, POST, OPTIONS, HEAD"],
      // The host's own route (Ponder's /metrics) is a known path.
      ["POST", "/metrics", "GET, HEAD"],
      // The paid answer refuses HEAD itself: its Allow does not offer it.
      ["POST", "/paid/reserves", "GET"],
      ["GET", "/paid/instant-read", "POST"],
      ["HEAD", "/paid/instant-read", "POST"],
    ];
    for (const [method, path, allow] of cases) {
      const res = await app().request(path, { method });
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers.get("Allow"), `${method} ${path}`).toBe(allow);
      if (method === "HEAD") continue;
      const body = (await res.json()) as { error: { code: string; details: { allowed: string[] } } };
      expect(body.error.code).toBe("method_not_allowed");
      expect(body.error.details.allowed.join(", ")).toBe(allow);
    }
  });

  it("an unknown path is the JSON 404, whatever the method", async () => {
    for (const method of ["GET", "POST", "HEAD"]) {
      const res = await app().request("/nowhere", { method });
      expect(res.status).toBe(404);
    }
  });

  it("HEAD on a GET path reaches the GET route, never the 405", async () => {
    const res = await app().request("/api/por", { method: "HEAD" });
    expect(res.status).toBe(200);
  });

  it("allowedMethods leaves the catch-all out", () => {
    expect(
      allowedMethods(
        [
          { method: "ALL", path: "*" },
          { method: "GET", path: "/a" },
        ],
        "/a",
      ),
    ).toEqual(["GET", "HEAD"]);
  });
});
