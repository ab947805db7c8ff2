import { describe, expect, it } from "vitest";
import { inProcessApp, TEST_SITE_URL } from "../in-process-app.test-support.js";
import { ALLOWED_REQUEST_HEADERS, EXPOSED_HEADERS } from "./cors.js";

const app = inProcessApp();
const ORIGIN = "https://elsewhere.example";
const ask = (path: string, init: RequestInit = {}) =>
  app.request(`${TEST_SITE_URL}${path}`, { ...init, headers: { origin: ORIGIN, ...init.headers } });
const preflight = (path: string, method: string, headers: string) =>
  ask(path, {
    method: "OPTIONS",
    headers: { "access-control-request-method": method, "access-control-request-headers": headers },
  });

const listed = (header: string | null) => (header ?? "").split(",").map((h) => h.trim().toLowerCase());

/**
 * Answers of every kind that need no database, store or chain: REST 200/400/404/405, the
 * documents, GraphQL (yoga's own answers and ours). test/e2e/discovery.test.ts asks every route of
 * the running stack, and the paid gateway's 402.
 */
const requests: [string, () => Response | Promise<Response>][] = [
  ["GET /api/openapi.json", () => ask("/api/openapi.json")],
  ["GET /llms.txt", () => ask("/llms.txt")],
  ["GET /api/por?block=x (400)", () => ask("/api/por?block=x")],
  ["GET /nowhere (404)", () => ask("/nowhere")],
  ["DELETE /api/por (405)", () => ask("/api/por", { method: "DELETE" })],
  [
    "POST /graphql",
    () =>
      ask("/graphql", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: '{"query":"{__typename}"}',
      }),
  ],
  ["GET /graphql?query={__typename}", () => ask("/graphql?query=%7B__typename%7D")],
  ["GET /graphql (GraphiQL)", () => ask("/graphql", { headers: { accept: "text/html" } })],
  [
    "POST /graphql text/plain (yoga's 415)",
    () => ask("/graphql", { method: "POST", headers: { "content-type": "text/plain" }, body: "{}" }),
  ],
  ["GET /graphql?variables=x (400)", () => ask("/graphql?query=%7B__typename%7D&variables=x")],
];

describe("CORS for browsers on any origin", () => {
  it.each(requests)(
    "%s: Allow-Origin * without credentials, the payment and cache headers exposed",
    async (_, send) => {
      const res = await send();
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      expect(res.headers.get("access-control-allow-credentials")).toBeNull();
      const exposed = listed(res.headers.get("access-control-expose-headers"));
      for (const h of ["PAYMENT-REQUIRED", "PAYMENT-RESPONSE", "ETag", "X-Request-Id", "Retry-After"])
        expect(exposed).toContain(h.toLowerCase());
    },
  );

  it.each([
    ["/paid/reserves", "GET"],
    ["/paid/instant-read", "POST"],
    ["/graphql", "POST"],
    ["/api/por", "GET"],
  ])("a preflight for %s (%s with PAYMENT-SIGNATURE and Content-Type) is allowed", async (path, method) => {
    const res = await preflight(path, method, "payment-signature, content-type");
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-credentials")).toBeNull();
    expect(listed(res.headers.get("access-control-allow-methods"))).toContain(method.toLowerCase());
    const allowed = listed(res.headers.get("access-control-allow-headers"));
    expect(allowed).toEqual(expect.arrayContaining(["payment-signature", "content-type"]));
  });

  it("exposes and allows the headers it documents", () => {
    expect(EXPOSED_HEADERS).toEqual(
      expect.arrayContaining(["PAYMENT-REQUIRED", "PAYMENT-RESPONSE", "ETag", "X-Request-Id", "Retry-After"]),
    );
    expect(ALLOWED_REQUEST_HEADERS).toEqual(expect.arrayContaining(["PAYMENT-SIGNATURE", "Content-Type"]));
  });
});
