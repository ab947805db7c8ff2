import { describe, expect, it } from "vitest";
import { withBodyIfEmpty } from "./empty-body.js";

describe("withBodyIfEmpty", () => {
  it("gives an empty or {} refusal a JSON body, keeping its status and headers", async () => {
    for (const text of ["", "{}", "  "]) {
      const res = await withBodyIfEmpty(
        new Response(text, {
          status: 402,
          headers: { "PAYMENT-REQUIRED": "abc", "content-length": String(text.length) },
        }),
        () => ({ error: { code: "x" } }),
      );
      expect(res.status).toBe(402);
      expect(res.headers.get("payment-required")).toBe("abc");
      expect(res.headers.get("content-type")).toBe("application/json");
      expect(await res.json()).toEqual({ error: { code: "x" } });
    }
  });
  it("leaves a body that says something alone", async () => {
    const res = await withBodyIfEmpty(new Response('{"error":1}', { status: 400 }), () => ({ replaced: true }));
    expect(await res.text()).toBe('{"error":1}');
  });
});
