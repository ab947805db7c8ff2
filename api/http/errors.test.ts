import { Hono } from "hono";
import { requestId } from "hono/request-id";
import { describe, expect, it, vi } from "vitest";
import { ApiError, onApiError } from "./errors.js";

function app() {
  const a = new Hono();
  a.onError(onApiError);
  a.use("*", requestId());
  a.get("/bug", () => {
    throw new Error("secret internals at /work/main/api/x.ts:12");
  });
  a.get("/refused", () => {
    throw new ApiError("block_not_indexed", "block 9 is past the indexed head", { block: "9" });
  });
  return a;
}

describe("onApiError", () => {
  it("masks a handler bug as 500 internal_error carrying the request id that the log line names", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const res = await app().request("/bug");
    expect(res.status).toBe(500);
    const body = (await res.json()) as { error: { code: string; message: string; details: { requestId: string } } };
    expect(body.error.code).toBe("internal_error");
    expect(JSON.stringify(body)).not.toMatch(/secret|\/work\//);
    expect(body.error.details.requestId).toBe(res.headers.get("x-request-id"));
    expect(String(log.mock.calls[0]?.[0])).toContain(body.error.details.requestId);
    log.mockRestore();
  });

  it("answers an ApiError with its own status, code and details", async () => {
    const res = await app().request("/refused");
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({
      error: { code: "block_not_indexed", message: "block 9 is past the indexed head", details: { block: "9" } },
    });
  });
});
