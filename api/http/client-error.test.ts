import { createServer } from "node:http";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answerClientErrorsWithJson, clientErrorResponse } from "./client-error.js";

/** Sends raw bytes and returns everything the server answers before it closes. */
function raw(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(bytes));
    let out = "";
    socket.on("data", (d) => (out += d));
    socket.on("end", () => resolve(out));
    socket.on("error", reject);
  });
}

const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4));

describe("clientErrorResponse", () => {
  it("maps the parser's header overflow to 431 and anything else to 400, as JSON with a correct length", () => {
    const overflow = clientErrorResponse("HPE_HEADER_OVERFLOW");
    expect(overflow.startsWith("HTTP/1.1 431 ")).toBe(true);
    expect(bodyOf(overflow).error.code).toBe("request_header_fields_too_large");
    const bad = clientErrorResponse("HPE_INVALID_HEADER_TOKEN");
    expect(bad.startsWith("HTTP/1.1 400 ")).toBe(true);
    const body = bad.slice(bad.indexOf("\r\n\r\n") + 4);
    expect(bad).toContain(`Content-Length: ${Buffer.byteLength(body)}\r\n`);
    expect(bodyOf(bad).error).toEqual({
      code: "malformed_request",
      message: "the request is not valid HTTP",
      details: { parser: "HPE_INVALID_HEADER_TOKEN" },
    });
  });
});

describe("answerClientErrorsWithJson on a real server", () => {
  const server = createServer((_req, res) => res.end("ok"));
  let port = 0;
  beforeAll(async () => {
    answerClientErrorsWithJson(server);
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it("a header line without a colon → 400 JSON", async () => {
    const answer = await raw(port, "GET / HTTP/1.1\r\nHost: x\r\nthis is not a header\r\n\r\n");
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(bodyOf(answer).error.code).toBe("malformed_request");
  });

  it("headers over Node's limit → 431 JSON", async () => {
    const answer = await raw(port, `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 431 /);
    expect(bodyOf(answer).error.code).toBe("request_header_fields_too_large");
  });
});
