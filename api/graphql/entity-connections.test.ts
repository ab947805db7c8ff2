/**
 * The generic entity connections in process (yoga over an in-memory PGlite holding Ponder's
 * tables and known rows): where, orderBy on any field, both paging directions, exact pageInfo,
 * totalCount, block, _meta, the deprecated aliases, and every limit answered as BAD_USER_INPUT
 * naming it. The expected answers are computed here from the rows the fixture inserted.
 */
import { getAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type EntityDb,
  HEAD,
  hashOf,
  ORPHAN,
  openEntityDb,
  swapRows,
  T0,
  USERS,
  vaultEventRows,
} from "./query/entities.fixture.js";
import { MAX_PAGE } from "./query/page.js";
import { FILTER_LIMITS } from "./query/where.js";
import { createGraphQL } from "./yoga.js";

let e: EntityDb;
let yoga: ReturnType<typeof createGraphQL>;
beforeAll(async () => {
  e = await openEntityDb();
  yoga = createGraphQL(e.ctx);
});
afterAll(() => e.close());

type Result = {
  data?: any;
  errors?: { message: string; extensions?: Record<string, unknown> }[];
  extensions?: { sqlQueries?: number };
};
async function gql(query: string, variables: Record<string, unknown> = {}): Promise<Result> {
  const res = await yoga.fetch(
    new Request("http://x/graphql", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ query, variables }),
    }),
  );
  expect(res.status).toBeLessThan(500);
  return (await res.json()) as Result;
}
async function ok(query: string, variables: Record<string, unknown> = {}) {
  const r = await gql(query, variables);
  expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
  return r.data;
}
const refused = async (query: string, variables: Record<string, unknown> = {}) => {
  const r = await gql(query, variables);
  expect(r.data?.[Object.keys(r.data ?? {})[0] ?? ""] ?? null).toBeNull();
  return r.errors?.[0]?.extensions ?? {};
};

type Swap = ReturnType<typeof swapRows>[number];
const swaps = swapRows();
const cmp = (a: bigint | number | string, b: bigint | number | string) => (a < b ? -1 : a > b ? 1 : 0);
/** The order the API promises: orderBy, then the key (block, log index, id), all in one direction. */
const sorted = (rows: Swap[], by: keyof Swap, dir: "asc" | "desc") =>
  [...rows].sort((a, b) => {
    const c =
      cmp(a[by] as bigint, b[by] as bigint) ||
      cmp(a.blockNumber, b.blockNumber) ||
      cmp(a.logIndex!, b.logIndex!) ||
      cmp(a.id, b.id);
    return dir === "asc" ? c : -c;
  });

/** Every node of a connection, page by page, forwards (first/after) or backwards (last/before). */
async function walk(field: string, args: string, size: number, backward = false) {
  const pages: { ids: string[]; hasNextPage: boolean; hasPreviousPage: boolean; totalCount: number }[] = [];
  let cursor: string | null = null;
  do {
    const d = await ok(
      `query($c: String) { ${field}(${args} ${backward ? "last" : "first"}: ${size}, ${backward ? "before" : "after"}: $c) {
        totalCount edges { cursor node { id } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`,
      { c: cursor },
    );
    const conn = d[field];
    pages.push({ ids: conn.edges.map((x: any) => x.node.id), ...conn.pageInfo, totalCount: conn.totalCount });
    const more = backward ? conn.pageInfo.hasPreviousPage : conn.pageInfo.hasNextPage;
    cursor = more ? (backward ? conn.pageInfo.startCursor : conn.pageInfo.endCursor) : null;
  } while (cursor);
  const ids = (backward ? [...pages].reverse() : pages).flatMap((p) => p.ids);
  return { ids, pages };
}

describe("ordering and paging", () => {
  it("orderBy a bigint field, descending: forward pages, backward pages and a JS sort agree; pageInfo is exact; totalCount is the rows walked", async () => {
    const expected = sorted(swaps, "kusdAmount", "desc").map((r) => r.id);
    const args = "orderBy: kusdAmount, orderDirection: desc,";
    const forward = await walk("psmSwaps", args, 7);
    const backward = await walk("psmSwaps", args, 7, true);
    expect(forward.ids).toEqual(expected);
    expect(backward.ids).toEqual(expected);
    expect(forward.ids[0]).toBe(swaps[59]!.id); // 1e24, past int8: compared as a big integer
    for (const p of [...forward.pages, ...backward.pages]) expect(p.totalCount).toBe(expected.length);
    expect(forward.pages.map((p) => [p.hasPreviousPage, p.hasNextPage])).toEqual(
      forward.pages.map((_, i) => [i > 0, i < forward.pages.length - 1]),
    );
    expect(backward.pages.map((p) => [p.hasPreviousPage, p.hasNextPage])).toEqual(
      backward.pages.map((_, i) => [i < backward.pages.length - 1, i > 0]),
    );
  });

  it("the default order is chain order; the old ASC/DESC spelling still works", async () => {
    const chain = sorted(swaps, "blockNumber", "asc").map((r) => r.id);
    expect((await walk("psmSwaps", "", 11)).ids).toEqual(chain);
    expect((await walk("psmSwaps", "orderDirection: DESC,", 11)).ids).toEqual([...chain].reverse());
  });

  it("orderBy a nullable field: nulls last ascending, first descending, both directions of paging agree", async () => {
    const rows = vaultEventRows();
    const asc = [...rows]
      .sort(
        (a, b) =>
          cmp(a.assets === null ? 1 : 0, b.assets === null ? 1 : 0) ||
          cmp(a.assets ?? 0n, b.assets ?? 0n) ||
          cmp(a.blockNumber, b.blockNumber) ||
          cmp(a.id, b.id),
      )
      .map((r) => r.id);
    expect((await walk("vaultEvents", "orderBy: assets,", 2)).ids).toEqual(asc);
    expect((await walk("vaultEvents", "orderBy: assets,", 2, true)).ids).toEqual(asc);
    expect((await walk("vaultEvents", "orderBy: assets, orderDirection: desc,", 3)).ids).toEqual([...asc].reverse());
  });

  it("after and before bound one window, and pageInfo looks past it", async () => {
    const all = sorted(swaps, "feeBps", "asc");
    const d = await ok(`{ psmSwaps(orderBy: feeBps, first: 60) { edges { cursor } } }`);
    const cursors = d.psmSwaps.edges.map((x: any) => x.cursor);
    const page = await ok(
      `query($a: String, $b: String) { psmSwaps(orderBy: feeBps, after: $a, before: $b, first: 3) { nodes { id } pageInfo { hasNextPage hasPreviousPage } } }`,
      { a: cursors[10], b: cursors[15] },
    );
    expect(page.psmSwaps.nodes.map((n: any) => n.id)).toEqual(all.slice(11, 14).map((r) => r.id));
    expect(page.psmSwaps.pageInfo).toEqual({ hasNextPage: true, hasPreviousPage: true });
    const last = await ok(
      `query($a: String, $b: String) { psmSwaps(orderBy: feeBps, after: $a, before: $b, last: 10) { nodes { id } pageInfo { hasNextPage hasPreviousPage } } }`,
      { a: cursors[10], b: cursors[15] },
    );
    expect(last.psmSwaps.nodes.map((n: any) => n.id)).toEqual(all.slice(11, 15).map((r) => r.id));
    expect(last.psmSwaps.pageInfo).toEqual({ hasNextPage: true, hasPreviousPage: true });
  });

  it("totalCount and the far side of pageInfo cost a statement only when selected", async () => {
    const plain = await gql(`{ psmSwaps(first: 5) { nodes { id } pageInfo { hasNextPage endCursor } } }`);
    const counted = await gql(`{ psmSwaps(first: 5) { totalCount nodes { id } } }`);
    expect(plain.extensions?.sqlQueries).toBe(1);
    expect(counted.extensions?.sqlQueries).toBe(2);
  });
});

describe("where", () => {
  it("five largest redemptions by users outside a list, in one query", async () => {
    const outside = [USERS[0], USERS[1]];
    const d = await ok(
      `query($outside: [String!]) { psmSwaps(where: { direction: redeem, user_not_in: $outside }, orderBy: kusdAmount, orderDirection: desc, first: 5) { totalCount nodes { id user { address } } } }`,
      { outside },
    );
    const rows = swaps.filter((r) => r.direction === "redeem" && !outside.includes(r.user as never));
    expect(d.psmSwaps.nodes.map((n: any) => n.id)).toEqual(
      sorted(rows, "kusdAmount", "desc")
        .slice(0, 5)
        .map((r) => r.id),
    );
    expect(d.psmSwaps.totalCount).toBe(rows.length);
  });

  it("OR of ANDs, ranges on bigints and times, case-insensitive addresses", async () => {
    const d = await ok(
      `{ psmSwaps(first: 100, where: { OR: [{ user: "${USERS[3].toUpperCase().replace("0X", "0x")}", feeBps_gte: 3 }, { AND: [{ kusdAmount_gt: "5000000000000000000000" }, { timestamp_lt: "${new Date((T0 + 10 * 12) * 1000).toISOString()}" }] }] }) { nodes { id } } }`,
    );
    const expected = swaps.filter(
      (r) =>
        (r.user === USERS[3].toLowerCase() && r.feeBps! >= 3) ||
        (r.kusdAmount! > 5000n * 10n ** 18n && r.timestamp! < BigInt(T0 + 120)),
    );
    expect(d.psmSwaps.nodes.map((n: any) => n.id)).toEqual(sorted(expected, "blockNumber", "asc").map((r) => r.id));
    expect(expected.length).toBeGreaterThan(3);
  });

  it("the deprecated filter means what it meant, and combines with where", async () => {
    const legacy = await ok(
      `{ psmSwaps(first: 100, filter: { user: "${USERS[2]}", direction: redeem, minKusd: "2000000000000000000000", range: { toBlock: "20" } }) { nodes { id } } }`,
    );
    const modern = await ok(
      `{ psmSwaps(first: 100, where: { user: "${USERS[2]}", direction: redeem, kusdAmount_gte: "2000000000000000000000", blockNumber_lte: "20" }) { nodes { id } } }`,
    );
    expect(legacy.psmSwaps.nodes).toEqual(modern.psmSwaps.nodes);
    expect(legacy.psmSwaps.nodes.length).toBeGreaterThan(0);
    const both = await ok(
      `{ psmSwaps(first: 100, filter: { direction: redeem }, where: { direction: mint }) { totalCount } }`,
    );
    expect(both.psmSwaps.totalCount).toBe(0);
    const events = await ok(`{ vaultEvents(filter: { account: "${USERS[1]}" }) { nodes { id } } }`);
    const rows = vaultEventRows().filter((r) => [r.sender, r.from, r.to].includes(USERS[1]));
    expect(events.vaultEvents.nodes.map((n: any) => n.id)).toEqual(rows.map((r) => r.id));
  });

  it("top holders of a vault: shareBalances by shares, descending", async () => {
    const d = await ok(
      `{ shareBalances(where: { vaultKey: skUSD }, orderBy: shares, orderDirection: desc, first: 2) { nodes { account shares } } }`,
    );
    expect(d.shareBalances.nodes.map((n: any) => n.account.toLowerCase())).toEqual([
      USERS[3].toLowerCase(),
      USERS[2].toLowerCase(),
    ]);
  });
});

describe("limits and bad input are BAD_USER_INPUT, never a 500", () => {
  it("page size", async () => {
    expect(await refused(`{ psmSwaps(first: ${MAX_PAGE + 1}) { nodes { id } } }`)).toMatchObject({
      code: "BAD_USER_INPUT",
      argument: "first",
      limit: MAX_PAGE,
    });
    expect(await refused(`{ psmSwaps(last: 0) { nodes { id } } }`)).toMatchObject({
      argument: "last",
      limit: MAX_PAGE,
    });
    expect(await refused(`{ psmSwaps(first: 1, last: 1) { nodes { id } } }`)).toMatchObject({ code: "BAD_USER_INPUT" });
  });

  it("filter nesting and list length, also through variables", async () => {
    let deep: Record<string, unknown> = { feeBps: 1 };
    for (let i = 0; i <= FILTER_LIMITS.maxNesting; i++) deep = { OR: [deep] };
    expect(
      await refused(`query($w: PsmSwap_filter) { psmSwaps(where: $w) { nodes { id } } }`, { w: deep }),
    ).toMatchObject({
      code: "BAD_USER_INPUT",
      reason: "limit_exceeded",
      limit: FILTER_LIMITS.maxNesting,
    });
    const many = Array.from({ length: FILTER_LIMITS.maxInList + 1 }, () => USERS[0]);
    expect(
      await refused(`query($u: [String!]) { psmSwaps(where: { user_in: $u }) { nodes { id } } }`, { u: many }),
    ).toMatchObject({ code: "BAD_USER_INPUT", argument: "where.user_in", limit: FILTER_LIMITS.maxInList });
  });

  it("a filter nested thousands deep in variables is refused, not a crash", async () => {
    const deep = `${'{"OR":['.repeat(2000)}{}${"]}".repeat(2000)}`;
    const res = await yoga.fetch(
      new Request("http://x/graphql", {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: `{"query":"query($w: PsmSwap_filter) { psmSwaps(where: $w) { nodes { id } } }","variables":{"w":${deep}}}`,
      }),
    );
    expect(res.status).toBeLessThan(500);
    const body = (await res.json()) as Result;
    expect(body.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
  });

  it("bad values, cursors and orderBy", async () => {
    expect(await refused(`{ psmSwaps(where: { user: "0x12" }) { nodes { id } } }`)).toMatchObject({
      code: "BAD_USER_INPUT",
      argument: "where.user",
    });
    expect(await refused(`{ psmSwaps(after: "nope") { nodes { id } } }`)).toMatchObject({ argument: "after" });
    const d = await ok(`{ psmSwaps(first: 1) { pageInfo { endCursor } } }`);
    expect(
      await refused(`query($c: String) { psmSwaps(orderBy: fee, after: $c) { nodes { id } } }`, {
        c: d.psmSwaps.pageInfo.endCursor,
      }),
    ).toMatchObject({ argument: "after" });
    expect(await refused(`{ psmSwaps(where: { timestamp_gt: "soon" }) { nodes { id } } }`)).toMatchObject({
      argument: "where.timestamp_gt",
    });
  });
});

describe("block and _meta", () => {
  it("an event entity at a block holds the rows of blocks up to it, by number or by hash", async () => {
    const byNumber = await ok(`{ psmSwaps(block: { number: "10" }, first: 100) { totalCount } }`);
    const byHash = await ok(`{ psmSwaps(block: { hash: "${hashOf(10n)}" }, first: 100) { totalCount } }`);
    const expected = swaps.filter((r) => r.blockNumber <= 10n).length;
    expect(byNumber.psmSwaps.totalCount).toBe(expected);
    expect(byHash.psmSwaps.totalCount).toBe(expected);
  });

  it("refuses a block past the indexed head naming it, a hash off the canonical chain, an unknown hash", async () => {
    expect(await refused(`{ psmSwaps(block: { number: "${HEAD + 1n}" }) { nodes { id } } }`)).toMatchObject({
      code: "BAD_USER_INPUT",
      reason: "block_not_indexed",
      indexedHead: String(HEAD),
    });
    expect(await refused(`{ psmSwaps(block: { hash: "${hashOf(HEAD + 2n)}" }) { nodes { id } } }`)).toMatchObject({
      reason: "block_not_indexed",
    });
    expect(await refused(`{ psmSwaps(block: { hash: "${ORPHAN}" }) { nodes { id } } }`)).toMatchObject({
      reason: "block_not_canonical",
    });
    expect(await refused(`{ psmSwaps(block: { hash: "0x${"00".repeat(32)}" }) { nodes { id } } }`)).toMatchObject({
      argument: "block",
    });
    expect(await refused(`{ psmSwaps(block: { number: "1", hash: "${hashOf(1n)}" }) { nodes { id } } }`)).toMatchObject(
      {
        argument: "block",
      },
    );
    expect(await refused(`{ psmSwaps(block: {}) { nodes { id } } }`)).toMatchObject({ argument: "block" });
  });

  it("a state entity at a block reads its history source (balances rebuilt from balance_change)", async () => {
    const at10 = await ok(
      `{ shareBalances(block: { number: "10" }, orderBy: shares, orderDirection: desc) { totalCount nodes { account shares } } }`,
    );
    expect(at10.shareBalances).toEqual({
      totalCount: 2,
      nodes: [
        { account: getAddress(USERS[0]), shares: String(5n * 10n ** 30n) },
        { account: getAddress(USERS[1]), shares: String(2n * 10n ** 30n) },
      ],
    });
    const now = await ok(`{ shareBalances(where: { account: "${USERS[0]}" }) { nodes { shares } } }`);
    expect(now.shareBalances.nodes).toEqual([{ shares: String(10n ** 30n) }]);
  });

  it("_meta names the indexed head, its hash and time, and the sync status", async () => {
    const d = await ok(
      `{ _meta { block { number hash timestamp } status indexedHead } at: _meta(block: { number: "7" }) { block { number hash timestamp } } }`,
    );
    expect(d._meta).toEqual({
      block: {
        number: String(HEAD),
        hash: hashOf(HEAD),
        timestamp: new Date((T0 + Number(HEAD) * 12) * 1000).toISOString(),
      },
      status: "synced",
      indexedHead: String(HEAD),
    });
    expect(d.at.block).toEqual({
      number: "7",
      hash: hashOf(7n),
      timestamp: new Date((T0 + 7 * 12) * 1000).toISOString(),
    });
  });
});
