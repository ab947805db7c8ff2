/**
 * The exports in process, over the entity fixture (an in-memory PGlite with Ponder's tables):
 * the rows and values GraphQL answers for the same filter, the header's units, the parameters'
 * forms, keyset batches that never skip or repeat, and refusals as JSON errors before any row.
 */
import { getAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowBatches } from "../graphql/query/batches.js";
import { type EntityDb, HEAD, openEntityDb, swapRows, USERS } from "../graphql/query/entities.fixture.js";
import { orderingOf } from "../graphql/query/order.js";
import { FILTER_LIMITS } from "../graphql/query/where.js";
import { psmSwapSpec, vaultEventSpec } from "../graphql/specs/index.js";
import { createGraphQL } from "../graphql/yoga.js";
import { withApiErrors } from "../http/errors.js";
import { exportRoutes } from "./routes.js";

let e: EntityDb;
let app: ReturnType<typeof withApiErrors>;
let yoga: ReturnType<typeof createGraphQL>;
beforeAll(async () => {
  e = await openEntityDb();
  app = withApiErrors(exportRoutes(e.ctx));
  yoga = createGraphQL(e.ctx);
});
afterAll(() => e.close());

const get = (path: string) => app.request(path);
const ndjson = async (path: string) => {
  const res = await get(path);
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.text())
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
};
async function graphqlNodes(query: string) {
  const res = await yoga.fetch(
    new Request("http://x/graphql", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ query }),
    }),
  );
  const body = (await res.json()) as { data: Record<string, { nodes: Record<string, unknown>[] }>; errors?: unknown };
  expect(body.errors).toBeUndefined();
  return Object.values(body.data)[0]!.nodes;
}
const FIELDS = "id direction usdcAmount kusdAmount fee feeBps kusdBurned txHash blockNumber logIndex timestamp";

describe("GET /api/export/psmSwaps.(csv|ndjson)", () => {
  it("holds the rows and values GraphQL answers for the same where and order", async () => {
    const where = { OR: [{ direction: "redeem", kusdAmount_gte: "3000000000000000000000" }, { user: USERS[3] }] };
    const rows = await ndjson(
      `/api/export/psmSwaps.ndjson?where=${encodeURIComponent(JSON.stringify(where))}&orderBy=kusdAmount&orderDirection=desc`,
    );
    const nodes = await graphqlNodes(
      `{ psmSwaps(first: 100, where: { OR: [{ direction: redeem, kusdAmount_gte: "3000000000000000000000" }, { user: "${USERS[3]}" }] }, orderBy: kusdAmount, orderDirection: desc) { nodes { ${FIELDS} psm { key address } user { address } } } }`,
    );
    expect(rows.length).toBeGreaterThan(5);
    expect(rows).toEqual(
      nodes.map(({ psm, user, ...n }) => ({
        ...n,
        psmKey: (psm as { key: string }).key,
        psm: (psm as { address: string }).address,
        user: (user as { address: string }).address,
      })),
    );
  });

  it("takes filters as parameters too, the same as where", async () => {
    const asParams = await ndjson(
      `/api/export/psmSwaps.ndjson?direction=redeem&kusdAmount_gte=3000000000000000000000&user_not_in=${USERS[0]},${USERS[1]}&fromBlock=5&toBlock=25`,
    );
    const asWhere = await ndjson(
      `/api/export/psmSwaps.ndjson?where=${encodeURIComponent(JSON.stringify({ direction: "redeem", kusdAmount_gte: "3000000000000000000000", user_not_in: [USERS[0], USERS[1]], blockNumber_gte: "5", blockNumber_lte: "25" }))}`,
    );
    expect(asParams).toEqual(asWhere);
    const expected = swapRows().filter(
      (r) =>
        r.direction === "redeem" &&
        r.kusdAmount! >= 3000n * 10n ** 18n &&
        ![USERS[0], USERS[1]].includes(r.user as never) &&
        r.blockNumber >= 5n &&
        r.blockNumber <= 25n,
    );
    expect(asParams.map((r) => r.id)).toEqual(expected.map((r) => r.id));
  });

  it("CSV: a header naming units, one line per row, an attachment named after the connection and the block", async () => {
    const res = await get("/api/export/psmSwaps.csv?limit=3");
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="psmSwaps-${HEAD}.csv"`);
    expect(res.headers.get("x-block-number")).toBe(String(HEAD));
    const lines = (await res.text()).trimEnd().split("\n");
    expect(lines).toHaveLength(4);
    expect(lines[0]).toBe(
      'id,psmKey,psm,direction,user,"usdcAmount (USDC, 6 decimals raw)","kusdAmount (kUSD, 18 decimals raw)","fee (raw fromToken units: USDC 6 decimals (mint), kUSD 18 (redeem))",feeBps (basis points),"kusdBurned (kUSD, 18 decimals raw)",txHash,blockNumber (block number),"timestamp (ISO 8601, UTC)",logIndex',
    );
    const first = swapRows()[0]!;
    expect(lines[1]!.split(",").slice(0, 2)).toEqual([first.id, first.psmKey]);
  });

  it("a state entity at a block: the balances as of it, the block in the filename", async () => {
    const res = await get("/api/export/shareBalances.ndjson?block=10&orderBy=shares&orderDirection=desc");
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="shareBalances-10.ndjson"');
    const rows = (await res.text())
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    expect(rows.map((r) => [r.account, r.shares])).toEqual([
      [getAddress(USERS[0]), String(5n * 10n ** 30n)],
      [getAddress(USERS[1]), String(2n * 10n ** 30n)],
    ]);
  });

  it("a state entity has no block bound and no block in its filename", async () => {
    const res = await get("/api/export/shareBalances.csv?orderBy=shares&orderDirection=desc");
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="shareBalances.csv"');
    expect((await res.text()).split("\n")[1]).toContain(getAddress(USERS[3]));
  });
});

describe("refusals are JSON errors before any row", () => {
  it.each([
    ["/api/export/psmSwaps.csv?where={nope", 400, "invalid_argument", "where"],
    ["/api/export/psmSwaps.csv?where=[1]", 400, "invalid_argument", "where"],
    ["/api/export/psmSwaps.csv?nope=1", 400, "invalid_argument", "nope"],
    ["/api/export/psmSwaps.csv?user=0x12", 400, "invalid_argument", "user"],
    ["/api/export/psmSwaps.csv?direction=redeem&direction=mint", 400, "invalid_argument", "direction"],
    ["/api/export/psmSwaps.csv?orderBy=nope", 400, "invalid_argument", "orderBy"],
    ["/api/export/psmSwaps.csv?orderDirection=up", 400, "invalid_argument", "orderDirection"],
    ["/api/export/psmSwaps.csv?limit=0", 400, "invalid_argument", "limit"],
    ["/api/export/psmSwaps.csv?block=12x", 400, "invalid_argument", "block"],
    ["/api/export/shareBalances.csv?fromBlock=1", 400, "invalid_argument", "fromBlock"],
    ["/api/export/shareBalances.csv?block=0x12", 400, "invalid_argument", "block"],
    [`/api/export/psmSwaps.ndjson?block=${HEAD + 1n}`, 422, "block_not_indexed", "block"],
  ])("%s → %i %s", async (path, status, code, argument) => {
    const res = await get(path);
    expect(res.status).toBe(status);
    expect(await res.json()).toMatchObject({ error: { code, details: { argument } } });
  });

  it("names the limit an _in list or a where's nesting went over", async () => {
    const many = Array.from({ length: FILTER_LIMITS.maxInList + 1 }, () => USERS[0]).join(",");
    const res = await get(`/api/export/psmSwaps.csv?user_in=${many}`);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      error: { code: "limit_exceeded", details: { argument: "user_in", limit: FILTER_LIMITS.maxInList } },
    });
    let deep: unknown = { feeBps: 1 };
    for (let i = 0; i <= FILTER_LIMITS.maxNesting; i++) deep = { OR: [deep] };
    const nested = await get(`/api/export/psmSwaps.csv?where=${encodeURIComponent(JSON.stringify(deep))}`);
    expect(await nested.json()).toMatchObject({
      error: { code: "limit_exceeded", details: { limit: FILTER_LIMITS.maxNesting } },
    });
  });
});

describe("rowBatches", () => {
  it("reads every row once, in order, batch after batch, for any ordering (nullable ones too)", async () => {
    for (const [spec, orderBy, direction, total] of [
      [psmSwapSpec, "kusdAmount", "desc", 60],
      [psmSwapSpec, "feeBps", "asc", 60],
      [vaultEventSpec, "sender", "asc", 9],
      [vaultEventSpec, "assets", "desc", 9],
    ] as const) {
      const ordering = orderingOf(spec, orderBy, direction);
      const q = { source: spec.source(null), where: undefined, ordering };
      const ids: unknown[] = [];
      const sizes: number[] = [];
      for await (const rows of rowBatches(e.db, q, { batch: 4 })) {
        sizes.push(rows.length);
        ids.push(...rows.map((r) => r.id));
      }
      const all: unknown[] = [];
      for await (const rows of rowBatches(e.db, q, { batch: 1000 })) all.push(...rows.map((r) => r.id));
      expect(ids).toEqual(all);
      expect(ids).toHaveLength(total);
      expect(Math.max(...sizes)).toBe(4);
      const limited: unknown[] = [];
      for await (const rows of rowBatches(e.db, q, { batch: 4, limit: 6 })) limited.push(...rows.map((r) => r.id));
      expect(limited).toEqual(all.slice(0, 6));
    }
  });
});
