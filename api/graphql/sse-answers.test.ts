/**
 * Subscriptions over HTTP through the whole app in process: the stream's headers are real HTTP
 * (no `Content-Encoding: none`), and a subscription asked as JSON is told how to ask for it.
 */
import { describe, expect, it } from "vitest";
import { inProcessApp, TEST_SITE_URL } from "../in-process-app.test-support.js";

const app = inProcessApp();
const subscribe = (accept: string) =>
  app.request(`${TEST_SITE_URL}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", accept },
    body: JSON.stringify({ query: "subscription { psmSwaps { kind } }" }),
  });

describe("GraphQL subscriptions over HTTP", () => {
  it("stream as server-sent events without a made-up content coding", async () => {
    const res = await subscribe("text/event-stream");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(res.headers.has("content-encoding")).toBe(false);
    // The stream's first bytes (yoga's opening ping), then hang up.
    const reader = res.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe(":\n\n");
    await reader.cancel();
  });

  it("asked as JSON: 406 naming text/event-stream and the WebSocket endpoint", async () => {
    const res = await subscribe("application/json");
    expect(res.status).toBe(406);
    const body = (await res.json()) as { errors: { message: string; extensions: { code: string } }[] };
    expect(body.errors[0]!.message).toContain("Accept: text/event-stream");
    expect(body.errors[0]!.message).toContain("graphql-ws");
  });
});
