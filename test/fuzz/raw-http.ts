/**
 * HTTP/1.1 over a raw socket, the way Python's http.client and many agent libraries talk: each
 * request is written whole before anything is read. A server that answers early and stops
 * reading resets such a client before it reads the answer; fetch, which reads while it writes,
 * would not show that.
 */
import { connect } from "node:net";

export type RawResponse = { status: number; headers: Record<string, string>; body: string };

/** One response at the start of `buf` and its length in bytes; null while it is incomplete. */
function parseResponse(buf: Buffer): { response: RawResponse; length: number } | null {
  const head = buf.indexOf("\r\n\r\n");
  if (head < 0) return null;
  const [statusLine = "", ...lines] = buf.subarray(0, head).toString("latin1").split("\r\n");
  const headers = Object.fromEntries(
    lines.map((l) => [l.slice(0, l.indexOf(":")).trim().toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]),
  );
  const status = Number(statusLine.split(" ")[1]);
  let at = head + 4;
  if (headers["transfer-encoding"]?.toLowerCase() === "chunked") {
    const parts: Buffer[] = [];
    for (;;) {
      const eol = buf.indexOf("\r\n", at);
      if (eol < 0) return null;
      const size = parseInt(buf.subarray(at, eol).toString("latin1"), 16);
      if (buf.length < eol + 2 + size + 2) return null;
      parts.push(buf.subarray(eol + 2, eol + 2 + size));
      at = eol + 2 + size + 2;
      if (size === 0) return { response: { status, headers, body: Buffer.concat(parts).toString("utf8") }, length: at };
    }
  }
  const length = Number(headers["content-length"] ?? 0);
  if (buf.length < at + length) return null;
  return { response: { status, headers, body: buf.subarray(at, at + length).toString("utf8") }, length: at + length };
}

/** A request's bytes: the head, then the body as is or in chunks of `chunkSize` (Transfer-Encoding: chunked). */
export function rawRequest(
  method: string,
  path: string,
  host: string,
  body: Buffer | null,
  headers: Record<string, string> = {},
  chunkSize?: number,
): Buffer {
  const all: Record<string, string> = { Host: host, ...headers };
  if (body && chunkSize) all["Transfer-Encoding"] = "chunked";
  else if (body) all["Content-Length"] = String(body.length);
  const head = Buffer.from(
    `${method} ${path} HTTP/1.1\r\n${Object.entries(all)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join("")}\r\n`,
    "latin1",
  );
  if (!body) return head;
  if (!chunkSize) return Buffer.concat([head, body]);
  const parts: Buffer[] = [head];
  for (let at = 0; at < body.length; at += chunkSize) {
    const piece = body.subarray(at, at + chunkSize);
    parts.push(Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from("\r\n"));
  }
  return Buffer.concat([...parts, Buffer.from("0\r\n\r\n")]);
}

/**
 * Sends `requests` one after another on one connection, each written whole (the kernel took every
 * byte) before its response is read. Rejects on a reset, or when the server closes the connection
 * before all the responses arrived.
 */
export function writeThenRead(url: string, requests: Buffer[], timeoutMs = 60_000): Promise<RawResponse[]> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    socket.pause();
    let buffered = Buffer.alloc(0);
    const responses: RawResponse[] = [];
    const fail = (err: Error) => {
      clearTimeout(timer);
      socket.destroy();
      reject(err);
    };
    const timer = setTimeout(
      () => fail(new Error(`no complete answer within ${timeoutMs} ms (${responses.length} of ${requests.length})`)),
      timeoutMs,
    );
    const sendNext = () => {
      socket.pause();
      socket.write(requests[responses.length]!, (err) => (err ? fail(err) : socket.resume()));
    };
    socket.on("data", (d: Buffer) => {
      buffered = Buffer.concat([buffered, d]);
      const parsed = parseResponse(buffered);
      if (!parsed) return;
      buffered = buffered.subarray(parsed.length);
      responses.push(parsed.response);
      if (responses.length < requests.length) return sendNext();
      clearTimeout(timer);
      socket.destroy();
      resolve(responses);
    });
    socket.on("error", fail);
    socket.on("close", () =>
      fail(new Error(`connection closed after ${responses.length} of ${requests.length} responses`)),
    );
    socket.on("connect", sendNext);
  });
}
