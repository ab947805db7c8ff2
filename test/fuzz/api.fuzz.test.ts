/**
 * Property-based fuzzing of the running stack (`npm run test:fuzz`): every free route with
 * generated query parameters, every method on known and unknown paths, GraphQL over GET and POST,
 * GraphQL documents and variables nested thousands deep, bodies over the size limit (also from a
 * client that writes the whole body before reading), and the paid gateway with generated bodies
 * and payment headers. For every case: no 5xx, and every refusal in the JSON error shape. Over
 * the whole run: no payment settles (the recipient's USDC balance and its incoming Transfer logs
 * are unchanged) and /health keeps answering.
 * Seeded: FUZZ_SEED=<n> replays a run; a failure prints the seed, the path and the shrunk case.
 */
import fc from "fast-check";
import { type Address, getAddress, parseAbiItem } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_BODY_BYTES } from "../../api/app.js";
import { DRAIN_MAX_BYTES, DRAIN_MAX_EVENTS } from "../../api/http/body-limit.js";
import { stack } from "../helpers/stack.js";
import {
  bodySize,
  bodyText,
  contentType,
  method,
  nestedDocument,
  nestedVariablesBody,
  paramValue,
  queryOf,
} from "./arbitraries.js";
import { entityQuery, exportUrl } from "./entity-queries.js";
import { paymentHeader } from "./payment-headers.js";
import { type RawResponse, rawRequest, writeThenRead } from "./raw-http.js";

const s = stack();
const base = s.indexerUrl;
const seed = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const RUNS = {
  routes: 900,
  methods: 300,
  graphql: 400,
  nested: 200,
  oversized: 60,
  paid: 600,
  entities: 400,
  exports: 150,
};
const MAX_BODY = MAX_BODY_BYTES;
const DRAIN_MAX = DRAIN_MAX_BYTES;
const cases: Record<string, number> = {};
const statuses: Record<string, number> = {};

type Doc = { paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>> };

/** The answer must not be a 5xx, and a refusal must say what was wrong in our JSON shape. */
async function expectWellFormed(res: Response, label: string, surface: string) {
  cases[surface] = (cases[surface] ?? 0) + 1;
  statuses[res.status] = (statuses[res.status] ?? 0) + 1;
  const text = res.status === 204 || label.startsWith("HEAD ") ? "" : await res.text();
  expect(res.status, `${label} → ${res.status} ${text.slice(0, 300)}`).toBeLessThan(500);
  if (res.status < 400 || label.startsWith("HEAD ")) return;
  let body: unknown;
  expect(() => (body = JSON.parse(text)), `${label} → ${res.status} not JSON: ${text.slice(0, 200)}`).not.toThrow();
  const b = body as { error?: { code?: unknown; message?: unknown }; errors?: { message?: unknown }[] };
  const ours = typeof b.error?.code === "string" && typeof b.error?.message === "string";
  const graphql = label.includes("/graphql") && Array.isArray(b.errors) && typeof b.errors[0]?.message === "string";
  expect(ours || graphql, `${label} → ${res.status} ${text.slice(0, 200)}`).toBe(true);
  expect(text, label).not.toMatch(/node_modules|\/work\/|at [\w.]+ \(/);
}

const send = (path: string, init: RequestInit = {}) =>
  fetch(`${base}${path}`, { ...init, signal: AbortSignal.timeout(60_000) });

let doc: Doc;
let recipient: Address;
let usdc: Address;
let startBlock: bigint;
let balanceBefore: bigint;
let requirements: Record<string, unknown>;
const health: { ms: number; status: number; error?: string }[] = [];
let current = "";
let probe: NodeJS.Timeout | undefined;

const balanceOf = (a: Address) =>
  s.client.readContract({
    address: usdc,
    abi: [parseAbiItem("function balanceOf(address) view returns (uint256)")],
    functionName: "balanceOf",
    args: [a],
    blockTag: "latest",
  });

beforeAll(async () => {
  console.log(`[fuzz] seed ${seed} (replay with FUZZ_SEED=${seed})`);
  doc = (await (await send("/api/openapi.json")).json()) as Doc;
  recipient = getAddress(s.deployment.payments.recipient);
  usdc = getAddress(s.addr("usdc"));
  startBlock = await s.client.getBlockNumber({ cacheTime: 0 });
  balanceBefore = await balanceOf(recipient);
  // The first statement is signed once the indexer has caught up: until then /paid/reserves is 503.
  let challenge = await send("/paid/reserves");
  for (let i = 0; i < 120 && challenge.status !== 402; i++) {
    await new Promise((r) => setTimeout(r, 500));
    challenge = await send("/paid/reserves");
  }
  expect(challenge.status).toBe(402);
  requirements = JSON.parse(Buffer.from(challenge.headers.get("payment-required")!, "base64").toString("utf8"))
    .accepts[0];
  probe = setInterval(() => {
    const t0 = performance.now();
    void fetch(`${base}/health`).then(
      (r) => health.push({ ms: performance.now() - t0, status: r.status }),
      (e: Error & { cause?: { code?: string; message?: string } }) =>
        health.push({
          ms: performance.now() - t0,
          status: 0,
          error: `${e.cause?.code ?? e.cause?.message ?? e.message} during ${current}`,
        }),
    );
  }, 250);
}, 60_000);

afterAll(() => clearInterval(probe));

describe(`fuzz (seed ${seed})`, () => {
  it("free routes: generated query and path parameters", async () => {
    const routes = Object.entries(doc.paths).flatMap(([path, ops]) =>
      ops.get ? [{ path, params: (ops.get.parameters ?? []).filter((p) => p.in === "query").map((p) => p.name) }] : [],
    );
    expect(routes.length).toBeGreaterThan(10);
    const arb = fc
      .constantFrom(...routes)
      .chain((r) =>
        fc
          .tuple(fc.constant(r), queryOf(r.params), paramValue())
          .map(
            ([route, query, segment]) =>
              `${route.path.replace(/\{[^}]+\}/g, encodeURIComponent(segment) || "x")}${query}`,
          ),
      );
    await fc.assert(
      fc.asyncProperty(arb, async (url) => expectWellFormed(await send(url), `GET ${url}`, "free routes")),
      { seed, numRuns: RUNS.routes },
    );
  }, 900_000);

  it("any method on known and unknown paths, with any body", async () => {
    const known = [
      ...Object.keys(doc.paths).filter((p) => !p.includes("{")),
      "/graphql",
      "/paid/reserves",
      "/paid/instant-read",
      "/paid/openapi.json",
      "/",
    ];
    const path = fc.oneof(
      fc.constantFrom(...known),
      fc.webPath().map((p) => p || "/"),
      fc.constantFrom("/api/", "/api//por", "/paid/", "/sql/db", "/ponder/graphql", "/.well-known/x"),
    );
    const arb = fc.tuple(method(), path, bodyText(), contentType());
    await fc.assert(
      fc.asyncProperty(arb, async ([m, p, body, type]) => {
        const init: RequestInit = { method: m, headers: type ? { "content-type": type } : {} };
        if (m !== "GET" && m !== "HEAD") init.body = body;
        await expectWellFormed(await send(p, init), `${m} ${p}`, "methods and paths");
      }),
      { seed: seed + 1, numRuns: RUNS.methods },
    );
  }, 900_000);

  it("GraphQL over GET and POST: generated documents, variables and extensions", async () => {
    const documents = fc.oneof(
      fc.string({ maxLength: 80 }),
      fc.constantFrom(
        "{ __typename }",
        "{ psmSwaps(first: 3) { nodes { id } } }",
        "{ psmSwaps(first: -1) { nodes { id } } }",
        '{ psmSwaps(after: "zz") { nodes { id } } }',
        "query($n: Int) { psmSwaps(first: $n) { nodes { id } } }",
        '{ account(address: "0x12") { address } }',
        "subscription { violations { txHash } }",
        "{ a: reserves { blockNumber } b: reserves { blockNumber } c: reserves { blockNumber } }",
        '{ stats(block: "-5") { blockNumber } }',
      ),
    );
    const arb = fc.tuple(fc.boolean(), documents, bodyText(), bodyText(), contentType());
    await fc.assert(
      fc.asyncProperty(arb, async ([asGet, query, variables, extensions, type]) => {
        if (asGet) {
          const q = new URLSearchParams({ query, variables, extensions });
          await expectWellFormed(
            await send(`/graphql?${q}`, { headers: { accept: "application/json" } }),
            `GET /graphql?${q}`,
            "graphql",
          );
        } else {
          const body =
            Math.random() < 0.7
              ? JSON.stringify({ query, variables: safeJson(variables), extensions: safeJson(extensions) })
              : variables;
          await expectWellFormed(
            await send("/graphql", {
              method: "POST",
              body,
              headers: { accept: "application/json", ...(type ? { "content-type": type } : {}) },
            }),
            `POST /graphql ${body.slice(0, 80)}`,
            "graphql",
          );
        }
      }),
      { seed: seed + 2, numRuns: RUNS.graphql },
    );
  }, 900_000);

  it("GraphQL entity connections: generated where, orderBy, direction, page sizes, cursors and blocks", async () => {
    await fc.assert(
      fc.asyncProperty(entityQuery(), async ({ label, body }) => {
        const res = await send("/graphql", {
          method: "POST",
          body,
          headers: { accept: "application/json", "content-type": "application/json" },
        });
        // Every refusal names what was wrong: never the masked internal error.
        expect(await res.clone().text(), label).not.toContain("INTERNAL_SERVER_ERROR");
        await expectWellFormed(res, label, "entity queries");
      }),
      { seed: seed + 6, numRuns: RUNS.entities },
    );
  }, 900_000);

  it("exports: generated where (JSON) and filter parameters", async () => {
    await fc.assert(
      fc.asyncProperty(exportUrl(), async (url) => expectWellFormed(await send(url), `GET ${url}`, "exports")),
      { seed: seed + 7, numRuns: RUNS.exports },
    );
  }, 900_000);

  it("GraphQL: documents and variables nested thousands deep", async () => {
    // Sized to pass the body limit (POST) and Node's 16 KiB header limit (GET, where `[` is sent as %5B).
    const arb = fc.oneof(
      nestedDocument(4_800).map((query) => ({ m: "GET", query, body: "" })),
      nestedDocument(MAX_BODY - 1_000).map((query) => ({ m: "POST", query, body: JSON.stringify({ query }) })),
      nestedVariablesBody(MAX_BODY - 500).map((body) => ({ m: "POST", query: "", body })),
    );
    await fc.assert(
      fc.asyncProperty(arb, async ({ m, query, body }) => {
        const res =
          m === "GET"
            ? await send(`/graphql?${new URLSearchParams({ query })}`, { headers: { accept: "application/json" } })
            : await send("/graphql", {
                method: "POST",
                body,
                headers: { accept: "application/json", "content-type": "application/json" },
              });
        const label = `${m} /graphql ${(m === "GET" ? query : body).slice(0, 80)} (${(m === "GET" ? query : body).length} chars)`;
        const text = await res.clone().text();
        // A refusal names what was wrong: never the masked internal error.
        expect(text, label).not.toContain("INTERNAL_SERVER_ERROR");
        await expectWellFormed(res, label, "nested graphql");
      }),
      { seed: seed + 4, numRuns: RUNS.nested },
    );
  }, 900_000);

  it("bodies over the limit: a 413 the client can read, also one that writes the whole body first; the connection stays usable", async () => {
    const host = new URL(base).host;
    const how = fc.constantFrom("fetch", "raw", "raw chunked", "raw declared only");
    const arb = fc.tuple(
      fc.constantFrom("/graphql", "/paid/instant-read", "/api/por", "/no/such/path"),
      bodySize(MAX_BODY),
      how,
      contentType(),
      fc.constantFrom("a", "[", "{", "\u0000"),
      fc.integer({ min: 1, max: 64 * 1024 }),
    );
    await fc.assert(
      fc.asyncProperty(arb, async ([path, size, how, type, fill, chunkAsked]) => {
        // At most 200,000 chunks: building more blocks this process long enough for its own
        // keep-alive sockets (the /health probe's) to go stale under it, a failure of the test, not the server.
        const chunk = Math.max(chunkAsked, Math.ceil(size / 200_000));
        const body = Buffer.alloc(size, fill);
        const headers: Record<string, string> = type ? { "content-type": type } : {};
        const label = `POST ${path} ${size} bytes of ${JSON.stringify(fill)} (${how}${how === "raw chunked" ? `, ${chunk}-byte chunks` : ""})`;
        current = label;
        if (how === "fetch") {
          const res = await send(path, { method: "POST", body, headers });
          if (size > MAX_BODY) expect(res.status, label).toBe(413);
          return expectWellFormed(res, label, "oversized bodies");
        }
        // Declared past the drain cap and never sent: answered at once, and the server closes.
        const declaredOnly = how === "raw declared only";
        const first = declaredOnly
          ? rawRequest("POST", path, host, null, { ...headers, "Content-Length": String(DRAIN_MAX + size) })
          : rawRequest("POST", path, host, body, headers, how === "raw chunked" ? chunk : undefined);
        // Tens of thousands of tiny chunks are not drained (DRAIN_MAX_EVENTS): the server may answer
        // and close while the client still writes (documented in api/http/body-limit.ts). It must
        // stay up: the next connection is answered.
        const drainGivesUp = how === "raw chunked" && size / chunk > DRAIN_MAX_EVENTS && chunk < 512;
        const exchange = writeThenRead(
          base,
          declaredOnly ? [first] : [first, rawRequest("GET", "/health", host, null)],
        );
        if (drainGivesUp) {
          // A reset, or the 413 and then the announced close: either way the server lives on.
          await exchange.catch(() => null);
          expect((await send("/health")).status, `${label}, then GET /health`).toBe(200);
          return;
        }
        const [res, next] = await exchange;
        if (declaredOnly || size > MAX_BODY) expect(res!.status, label).toBe(413);
        if (declaredOnly) expect(res!.headers.connection, label).toBe("close");
        await expectWellFormed(asResponse(res!), label, "oversized bodies");
        if (next) expect(next.status, `${label}, then GET /health on the same connection`).toBe(200);
      }),
      { seed: seed + 5, numRuns: RUNS.oversized },
    );
  }, 900_000);

  it("paid gateway: generated bodies, content types and payment headers; nothing settles", async () => {
    const payer = getAddress("0x000000000000000000000000000000000000f00d");
    const now = Math.floor(Date.now() / 1000);
    const instantBody = fc.oneof(
      bodyText(),
      fc
        .record(
          { chain: fc.oneof(fc.constantFrom("base", "ethereum"), paramValue()), address: paramValue() },
          { requiredKeys: [] },
        )
        .map((x) => JSON.stringify(x)),
    );
    const arb = fc.tuple(
      fc.constantFrom("GET /paid/reserves", "POST /paid/instant-read"),
      instantBody,
      contentType(),
      fc.option(paymentHeader(requirements, payer, now), { freq: 3 }),
    );
    await fc.assert(
      fc.asyncProperty(arb, async ([route, body, type, header]) => {
        const [m, p] = route.split(" ") as [string, string];
        const headers: Record<string, string> = {
          ...(type ? { "content-type": type } : {}),
          ...(header ? { "PAYMENT-SIGNATURE": header } : {}),
        };
        await expectWellFormed(
          await send(p, { method: m, headers, ...(m === "POST" ? { body } : {}) }),
          `${route} ${body.slice(0, 60)}`,
          "paid",
        );
      }),
      { seed: seed + 3, numRuns: RUNS.paid },
    );
    // Nothing was charged: no USDC reached the recipient by any route during the run.
    expect(await balanceOf(recipient)).toBe(balanceBefore);
    const transfers = await s.client.getLogs({
      address: usdc,
      event: parseAbiItem("event Transfer(address indexed from, address indexed to, uint256 value)"),
      args: { to: recipient },
      fromBlock: startBlock,
      toBlock: "latest",
    });
    expect(transfers).toEqual([]);
  }, 900_000);

  it("ran at least 2,000 cases, and /health answered throughout", () => {
    const total = Object.values(cases).reduce((a, b) => a + b, 0);
    const ms = health.map((h) => h.ms).sort((a, b) => a - b);
    const pct = (q: number) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))]?.toFixed(1);
    console.log(
      `[fuzz] seed ${seed}: ${total} cases ${JSON.stringify(cases)}; statuses ${JSON.stringify(statuses)}; /health ${health.length} probes, p50 ${pct(0.5)} ms, p99 ${pct(0.99)} ms, max ${ms.at(-1)?.toFixed(1)} ms`,
    );
    expect(total).toBeGreaterThanOrEqual(2_000);
    expect(health.length).toBeGreaterThan(0);
    expect(health.filter((h) => h.status !== 200)).toEqual([]);
  });
});

/** A raw answer as a fetch Response, for the same checks. */
function asResponse(raw: RawResponse): Response {
  return new Response(raw.status === 204 || raw.status === 304 ? null : raw.body, {
    status: raw.status,
    headers: raw.headers,
  });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
