import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { createClient } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { graphqlWebSocket } from "./websocket.js";
import { createGraphQL } from "./yoga.js";

// A database that has indexed nothing yet (no checkpoint): every head read counts, and fails
// while `failing` is set.
let headReads = 0;
let failing = false;
const db = {
  execute: async () => {
    headReads++;
    if (failing) throw new Error("connection to 10.0.0.7:5432 refused (an internal detail)");
    return [];
  },
};
const yoga = createGraphQL({ db, network: { psms: {} } } as never);
const ws = graphqlWebSocket(yoga, { maxMessageBytes: 16 * 1024, maxOperations: 2 });
const server = createServer((_req, res) => res.end()).on("upgrade", ws.upgrade);
let base = "";

beforeAll(async () => {
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  base = `127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await ws.close();
  await new Promise((ok) => server.close(ok));
});

type Result = { data?: unknown; errors?: { message: string; extensions?: { code?: string } }[] };

const client = () => createClient({ url: `ws://${base}/graphql`, webSocketImpl: WebSocket, retryAttempts: 0 });

/** The first result of one operation, or the errors that refused it. */
async function once(query: string): Promise<Result> {
  const c = client();
  try {
    return await new Promise<Result>((resolve, reject) =>
      c.subscribe(
        { query },
        {
          next: (r) => resolve(r as Result),
          error: (e) => (Array.isArray(e) ? resolve({ errors: e }) : reject(e)),
          complete: () => {},
        },
      ),
    );
  } finally {
    await c.dispose();
  }
}

const codes = (r: Result) => r.errors?.map((e) => e.extensions?.code);

/** An upgrade the endpoint refuses: its status and JSON body. */
const refused = (path: string, upgrade: string) =>
  new Promise<{ status: number; body: unknown }>((resolve, reject) => {
    const req = request(`http://${base}${path}`, {
      headers: {
        connection: "Upgrade",
        upgrade,
        "sec-websocket-version": "13",
        "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==",
      },
    });
    req.on("response", async (res) => {
      let text = "";
      for await (const chunk of res) text += chunk;
      resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) });
    });
    req.on("upgrade", () => reject(new Error("upgraded")));
    req.on("error", reject);
    req.end();
  });

describe("GraphQL over WebSocket", () => {
  it("runs an operation through the HTTP server's yoga", async () => {
    // The same answer as over HTTP, extensions (the SQL statement count) included.
    expect(await once("{ __typename psms { key } }")).toEqual({
      data: { __typename: "Query", psms: [] },
      extensions: { sqlQueries: 0 },
    });
  });

  it("refuses with HTTP's codes: Armor's limits, the nesting scan, syntax, bad input", async () => {
    const aliases = `{ ${Array.from({ length: 16 }, (_, i) => `a${i}: psms { key }`).join(" ")} }`;
    expect(codes(await once(aliases))).toEqual(["ALIAS_LIMIT"]);
    expect(codes(await once(`{ psms(x: ${"[".repeat(70)}${"]".repeat(70)}) { key } }`))).toEqual(["NESTING_LIMIT"]);
    const syntax = await once("{ psms { key }");
    expect(syntax.errors?.[0]?.message).toMatch(/Syntax Error/);
    expect(codes(await once(`subscription { roleEvents(account: "0x12") { kind } }`))).toEqual(["BAD_USER_INPUT"]);
  });

  it("refuses an operation beyond the per-connection limit", async () => {
    const c = client();
    const results: Result[] = [];
    const sink = { next: (r: unknown) => results.push(r as Result), error: () => {}, complete: () => {} };
    const stops = [1, 2].map(() => c.subscribe({ query: "subscription { violations { kind } }" }, sink));
    const third = await new Promise<unknown>((resolve) =>
      c.subscribe({ query: "subscription { psmSwaps { kind } }" }, { ...sink, error: resolve }),
    );
    expect((third as Result["errors"])?.[0]?.extensions).toMatchObject({ code: "OPERATION_LIMIT", max: 2 });
    for (const stop of stops) stop();
    await c.dispose();
  });

  it("stops a subscription's polling when the socket closes", async () => {
    const c = client();
    c.subscribe(
      { query: "subscription { psmSwaps { kind } }" },
      { next: () => {}, error: () => {}, complete: () => {} },
    );
    const before = headReads;
    while (headReads === before) await new Promise((r) => setTimeout(r, 5));
    await c.dispose();
    await new Promise((r) => setTimeout(r, 50)); // the close reaches the server
    const after = headReads;
    await new Promise((r) => setTimeout(r, 1_100)); // longer than one poll
    expect(headReads).toBe(after);
  });

  it("masks a fault a running stream throws, as HTTP masks it", async () => {
    failing = true;
    try {
      const out = await once("subscription { violations { kind } }");
      expect(out.errors).toEqual([
        {
          message: "Unexpected error.",
          extensions: expect.objectContaining({ code: "INTERNAL_SERVER_ERROR" }),
        },
      ]);
    } finally {
      failing = false;
    }
  });

  it("upgrades only /graphql, only to a WebSocket, and says why in the API's error shape", async () => {
    expect(await refused("/api/stats", "websocket")).toMatchObject({
      status: 404,
      body: { error: { code: "not_found" } },
    });
    expect(await refused("/graphql", "h2c")).toMatchObject({ status: 400, body: { error: { code: "bad_request" } } });
  });
});
