import { createHash } from "node:crypto";
import type { Server } from "node:http";
import { type AddressInfo, connect } from "node:net";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bodyLimit } from "./body-limit.js";

const MAX = 16 * 1024;
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

const echo = (app: Hono) =>
  app.post("/echo", async (c) => {
    const bytes = new Uint8Array(await c.req.arrayBuffer());
    return c.json({ length: bytes.byteLength, sha256: sha256(bytes) });
  });

let servers: Server[] = [];
/** The app on a real @hono/node-server `serve` (as the replica runs it), on a free port. */
async function start(app: Hono): Promise<number> {
  const server = await new Promise<Server>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(s as Server));
  });
  servers.push(server);
  return (server.address() as AddressInfo).port;
}

type RawResponse = { status: number; headers: Record<string, string>; body: string };

/** One HTTP/1.1 response at the start of `buf`, and its length; null while it is incomplete. */
function parseResponse(buf: Buffer): { response: RawResponse; length: number } | null {
  const head = buf.indexOf("\r\n\r\n");
  if (head < 0) return null;
  const [statusLine, ...lines] = buf.subarray(0, head).toString("latin1").split("\r\n");
  const headers = Object.fromEntries(
    lines.map((l) => [l.slice(0, l.indexOf(":")).trim().toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]),
  );
  const status = Number(statusLine!.split(" ")[1]);
  let at = head + 4;
  if (headers["transfer-encoding"] === "chunked") {
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

/**
 * A client that writes its whole request before it reads anything, as Python's http.client and
 * many agent libraries do: the case where a server that stops reading early resets the connection.
 */
function writeThenReadClient(port: number) {
  const socket = connect(port, "127.0.0.1");
  socket.pause();
  let buffered = Buffer.alloc(0);
  let failure: Error | undefined;
  let closed = false;
  let wake = () => {};
  socket.on("data", (d: Buffer) => {
    buffered = Buffer.concat([buffered, d]);
    wake();
  });
  socket.on("error", (e) => {
    failure = e;
    wake();
  });
  socket.on("close", () => {
    closed = true;
    wake();
  });
  return {
    /** Resolves once the kernel has taken every byte (the server read them, or they fit its buffers). */
    write: (data: Buffer | string) =>
      new Promise<void>((resolve, reject) => socket.write(data, (err) => (err ? reject(err) : resolve()))),
    async read(): Promise<RawResponse> {
      socket.resume();
      for (;;) {
        const parsed = parseResponse(buffered);
        if (parsed) {
          buffered = buffered.subarray(parsed.length);
          return parsed.response;
        }
        if (failure) throw failure;
        if (closed) throw new Error(`connection closed after ${buffered.length} bytes of a response`);
        await new Promise<void>((resolve) => (wake = resolve));
      }
    },
    /** Resolves when the server has closed the connection. */
    closed: async () => {
      socket.resume();
      while (!closed) await new Promise<void>((resolve) => (wake = resolve));
    },
    destroy: () => socket.destroy(),
  };
}

const post = (path: string, headers: Record<string, string | number>) =>
  `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join("")}\r\n`;
const chunked = (body: Buffer, size: number) => {
  const parts: Buffer[] = [];
  for (let at = 0; at < body.length; at += size) {
    const piece = body.subarray(at, at + size);
    parts.push(Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from("\r\n"));
  }
  return Buffer.concat([...parts, Buffer.from("0\r\n\r\n")]);
};
const small = Buffer.from('{"query":"{ __typename }"}');

let port: number;
let cappedPort: number;

beforeAll(async () => {
  const app = new Hono();
  app.use("*", bodyLimit({ maxBytes: MAX }));
  port = await start(echo(app));
  const capped = new Hono();
  capped.use("*", bodyLimit({ maxBytes: MAX, drainMaxBytes: 256 * 1024, drainMaxMs: 300 }));
  cappedPort = await start(echo(capped));
});

afterAll(async () => {
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise((resolve) => s.close(resolve));
  }
  servers = [];
});

function expectPayloadTooLarge(res: RawResponse) {
  expect(res.status).toBe(413);
  expect(JSON.parse(res.body)).toEqual({
    error: {
      code: "payload_too_large",
      message: `request bodies are limited to ${MAX} bytes`,
      details: { maxBytes: MAX },
    },
  });
}

describe("bodyLimit on a real server, with a client that writes the whole body before reading", () => {
  it("a 1 MB body: a complete 413, and the connection answers the next request (keep-alive)", async () => {
    const client = writeThenReadClient(port);
    try {
      const body = Buffer.alloc(1024 * 1024, "a");
      await client.write(Buffer.concat([Buffer.from(post("/echo", { "Content-Length": body.length })), body]));
      const res = await client.read();
      expectPayloadTooLarge(res);
      expect(res.headers.connection).not.toBe("close");
      await client.write(Buffer.concat([Buffer.from(post("/echo", { "Content-Length": small.length })), small]));
      const next = await client.read();
      expect(next.status).toBe(200);
      expect(JSON.parse(next.body)).toEqual({ length: small.length, sha256: sha256(small) });
    } finally {
      client.destroy();
    }
  });

  it("a 10 MB body: a complete 413, no reset", async () => {
    const client = writeThenReadClient(port);
    try {
      const body = Buffer.alloc(10 * 1024 * 1024, "a");
      await client.write(Buffer.concat([Buffer.from(post("/echo", { "Content-Length": body.length })), body]));
      expectPayloadTooLarge(await client.read());
    } finally {
      client.destroy();
    }
  });

  it("a 1 MB chunked body: a complete 413, and the connection answers the next request", async () => {
    const client = writeThenReadClient(port);
    try {
      await client.write(
        Buffer.concat([
          Buffer.from(post("/echo", { "Transfer-Encoding": "chunked" })),
          chunked(Buffer.alloc(1024 * 1024, "b"), 16 * 1024),
        ]),
      );
      const res = await client.read();
      expectPayloadTooLarge(res);
      expect(res.headers.connection).not.toBe("close");
      await client.write(Buffer.concat([Buffer.from(post("/echo", { "Content-Length": small.length })), small]));
      expect((await client.read()).status).toBe(200);
    } finally {
      client.destroy();
    }
  });

  it("a body of exactly the limit reaches the handler intact, with Content-Length and chunked", async () => {
    const body = Buffer.from(Array.from({ length: MAX }, (_, i) => (i * 7) % 251));
    const client = writeThenReadClient(port);
    try {
      await client.write(Buffer.concat([Buffer.from(post("/echo", { "Content-Length": body.length })), body]));
      const plain = await client.read();
      expect(plain.status).toBe(200);
      expect(JSON.parse(plain.body)).toEqual({ length: MAX, sha256: sha256(body) });
      await client.write(
        Buffer.concat([Buffer.from(post("/echo", { "Transfer-Encoding": "chunked" })), chunked(body, 1000)]),
      );
      const buffered = await client.read();
      expect(buffered.status).toBe(200);
      expect(JSON.parse(buffered.body)).toEqual({ length: MAX, sha256: sha256(body) });
    } finally {
      client.destroy();
    }
  });

  it("one byte over the limit is refused, with Content-Length and chunked", async () => {
    const client = writeThenReadClient(port);
    try {
      const body = Buffer.alloc(MAX + 1, "c");
      await client.write(Buffer.concat([Buffer.from(post("/echo", { "Content-Length": body.length })), body]));
      expectPayloadTooLarge(await client.read());
      await client.write(
        Buffer.concat([Buffer.from(post("/echo", { "Transfer-Encoding": "chunked" })), chunked(body, 4096)]),
      );
      expectPayloadTooLarge(await client.read());
    } finally {
      client.destroy();
    }
  });
});

describe("bodyLimit past its drain caps", () => {
  it("a Content-Length over the drain cap is answered at once, with Connection: close", async () => {
    const client = writeThenReadClient(cappedPort);
    try {
      // Only the headers: the server must not wait for a body it will not read.
      await client.write(post("/echo", { "Content-Length": 1024 * 1024 }));
      const res = await client.read();
      expectPayloadTooLarge(res);
      expect(res.headers.connection).toBe("close");
      await client.closed();
    } finally {
      client.destroy();
    }
  });

  it("a body that stops arriving is answered when the time cap runs out, with Connection: close", async () => {
    const client = writeThenReadClient(cappedPort);
    try {
      const t0 = performance.now();
      await client.write(
        Buffer.concat([Buffer.from(post("/echo", { "Content-Length": 64 * 1024 })), Buffer.alloc(20 * 1024, "d")]),
      );
      const res = await client.read();
      expectPayloadTooLarge(res);
      expect(res.headers.connection).toBe("close");
      expect(performance.now() - t0).toBeLessThan(3_000);
      await client.closed();
    } finally {
      client.destroy();
    }
  });
});

describe("a body in tiny chunks", () => {
  it("is not drained chunk by chunk without end: a 413 with Connection: close, and the server answers the next connection", async () => {
    const client = writeThenReadClient(port);
    try {
      // 40,000 chunks of 8 bytes: past DRAIN_MAX_EVENTS at under 512 bytes a chunk.
      client
        .write(
          Buffer.concat([
            Buffer.from(post("/echo", { "Transfer-Encoding": "chunked" })),
            chunked(Buffer.alloc(40_000 * 8, "t"), 8),
          ]),
        )
        .catch(() => {});
      const res = await client.read();
      expectPayloadTooLarge(res);
      expect(res.headers.connection).toBe("close");
    } finally {
      client.destroy();
    }
    const next = writeThenReadClient(port);
    try {
      await next.write(Buffer.concat([Buffer.from(post("/echo", { "Content-Length": small.length })), small]));
      expect((await next.read()).status).toBe(200);
    } finally {
      next.destroy();
    }
  });
});

describe("bodyLimit without a socket (app.request)", () => {
  it("lets a body-less request and a small body through, and buffers a stream of unknown length for the handler", async () => {
    const app = echo(new Hono().use("*", bodyLimit({ maxBytes: MAX })));
    app.get("/x", (c) => c.text("ok"));
    expect((await app.request("/x")).status).toBe(200);
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new Uint8Array([1, 2, 3]));
        controller.enqueue(new Uint8Array([4]));
        controller.close();
      },
    });
    const res = await app.request("/echo", { method: "POST", body: stream, duplex: "half" } as RequestInit);
    expect(await res.json()).toEqual({ length: 4, sha256: sha256(new Uint8Array([1, 2, 3, 4])) });
  });
});
