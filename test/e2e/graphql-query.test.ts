/**
 * Issue 29, item 1, against the indexed devnet: analysts' questions answered in one query
 * (where, orderBy, orderDirection, first, block) and checked against the chain itself (Swap and
 * Transfer logs, balanceOf at the same block); backward pages equal forward pages reversed and
 * totalCount equals the rows walked; every limit is BAD_USER_INPUT; _meta names the indexed head;
 * Ponder's generated GraphQL is no longer served.
 */
import { type Address, erc20Abi, getAddress, parseAbiItem } from "viem";
import { describe, expect, it } from "vitest";
import { kusdpsmAbi } from "../../abis/index.js";
import { graphqlClient } from "../helpers/graphql.js";
import { stack } from "../helpers/stack.js";

const s = stack();
const d = s.deployment;
const lower = (a: string) => a.toLowerCase();
const { gql, ok } = graphqlClient(`${s.indexerUrl}/graphql`);
/** Every address any registry version lists. */
const listed = () => [...new Set(d.registry.versions.flatMap((v) => v.entries.map((e) => lower(e.address))))];
const TRANSFER = parseAbiItem("event Transfer(address indexed from, address indexed to, uint256 value)");
const desc = (a: bigint, b: bigint) => (a > b ? -1 : a < b ? 1 : 0);

describe("questions in one query, checked against the chain", () => {
  it("the five largest redemptions by addresses outside the registry equal the PSMs' Swap logs", async () => {
    const head = BigInt(await s.caughtUp());
    const outside = listed();
    const data = await ok(
      `query($outside: [String!], $head: BigInt!) {
        psmSwaps(block: { number: $head }, where: { direction: redeem, user_not_in: $outside }, orderBy: kusdAmount, orderDirection: desc, first: 5) {
          totalCount nodes { txHash kusdAmount user { address } }
        }
      }`,
      { outside, head: String(head) },
    );
    const logs = await s.client.getLogs({
      address: ["psmMint", "psmRetiredMint", "psmRedeemReserve"].map((k) => s.addr(k)),
      event: kusdpsmAbi.find((x) => x.type === "event" && x.name === "Swap") as never,
      fromBlock: 0n,
      toBlock: head,
    });
    type Log = { args: Record<string, any>; transactionHash: string; blockNumber: bigint; logIndex: number };
    const redemptions = (logs as unknown as Log[]).filter(
      (l) => lower(l.args.fromToken) === lower(s.addr("kUSD")) && !outside.includes(lower(l.args.user)),
    );
    // Ties in amount are broken as the API breaks them: later block, then later log, first.
    const top = [...redemptions]
      .sort(
        (a, b) =>
          desc(a.args.amount, b.args.amount) ||
          desc(a.blockNumber, b.blockNumber) ||
          desc(BigInt(a.logIndex), BigInt(b.logIndex)),
      )
      .slice(0, 5)
      .map((l) => ({ txHash: l.transactionHash, kusdAmount: l.args.amount as bigint, user: getAddress(l.args.user) }));
    expect(top.length).toBe(5);
    expect(data.psmSwaps.totalCount).toBe(redemptions.length);
    expect(
      data.psmSwaps.nodes.map((n: any) => ({
        txHash: n.txHash,
        kusdAmount: BigInt(n.kusdAmount),
        user: n.user.address,
      })),
    ).toEqual(top);
  });

  it("the top 10 skUSD holders equal balanceOf over every account skUSD's Transfer logs touch", async () => {
    const head = BigInt(await s.caughtUp());
    const data = await ok(
      `{ shareBalances(where: { vaultKey: skUSD, shares_gt: "0" }, orderBy: shares, orderDirection: desc, first: 10) { totalCount nodes { account shares } } }`,
    );
    const skusd = s.addr("skUSD");
    const logs = await s.client.getLogs({ address: skusd, event: TRANSFER, fromBlock: 0n, toBlock: head });
    const accounts = [...new Set(logs.flatMap((l) => [lower(l.args.from!), lower(l.args.to!)]))].filter(
      (a) => a !== "0x0000000000000000000000000000000000000000",
    );
    const balances = await Promise.all(
      accounts.map(async (account) => ({
        account: getAddress(account),
        shares: await s.client.readContract({
          address: skusd,
          abi: erc20Abi,
          functionName: "balanceOf",
          args: [account as Address],
          blockNumber: head,
        }),
      })),
    );
    const holders = balances.filter((b) => b.shares > 0n).sort((a, b) => desc(a.shares, b.shares));
    expect(data.shareBalances.totalCount).toBe(holders.length);
    expect(data.shareBalances.nodes.map((n: any) => ({ account: n.account, shares: BigInt(n.shares) }))).toEqual(
      holders.slice(0, 10),
    );
  });
});

/** Every node id of a connection, forwards (first/after) or backwards (last/before), and the totalCount each page gave. */
async function walk(args: string, size: number, backward: boolean) {
  const pages: string[][] = [];
  const totals = new Set<number>();
  let cursor: string | null = null;
  do {
    const data = await ok(
      `query($c: String) { registryTransfers(${args} ${backward ? "last" : "first"}: ${size}, ${backward ? "before" : "after"}: $c) {
        totalCount nodes { id } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`,
      { c: cursor },
    );
    const c = data.registryTransfers;
    pages.push(c.nodes.map((n: any) => n.id));
    totals.add(c.totalCount);
    const more = backward ? c.pageInfo.hasPreviousPage : c.pageInfo.hasNextPage;
    cursor = more ? (backward ? c.pageInfo.startCursor : c.pageInfo.endCursor) : null;
  } while (cursor);
  return { ids: (backward ? pages.reverse() : pages).flat(), totals: [...totals] };
}

describe("paging", () => {
  it("backward pages equal forward pages, in the same order; totalCount equals the rows walked", async () => {
    const head = await s.caughtUp();
    const args = `block: { number: "${head}" }, where: { amount_gt: "0" }, orderBy: amount, orderDirection: desc,`;
    const forward = await walk(args, 37, false);
    const backward = await walk(args, 37, true);
    expect(backward.ids).toEqual(forward.ids);
    expect(new Set(forward.ids).size).toBe(forward.ids.length);
    expect(forward.totals).toEqual([forward.ids.length]);
    expect(backward.totals).toEqual([forward.ids.length]);
    const rows = (await s.db.select().from(s.schema.registryTransfer)).filter(
      (r) => r.blockNumber <= BigInt(head) && r.amount > 0n,
    );
    expect(forward.ids.length).toBe(rows.length);
  });
});

describe("limits answer BAD_USER_INPUT naming the limit", () => {
  it("page size, filter nesting, _in length, cursors, a block past the head", async () => {
    const first = await gql(`{ psmSwaps(first: 1001) { nodes { id } } }`);
    expect(first.errors?.[0]?.extensions).toMatchObject({ code: "BAD_USER_INPUT", argument: "first", limit: 1000 });
    const nested = await gql(
      `{ psmSwaps(where: { OR: [{ OR: [{ OR: [{ OR: [{ feeBps: 1 }] }] }] }] }) { nodes { id } } }`,
    );
    expect(nested.errors?.[0]?.extensions).toMatchObject({
      code: "BAD_USER_INPUT",
      reason: "limit_exceeded",
      limit: 3,
    });
    const many = Array.from({ length: 201 }, (_, i) => `0x${i.toString(16).padStart(40, "0")}`);
    const list = await gql(`query($u: [String!]) { psmSwaps(where: { user_in: $u }) { nodes { id } } }`, { u: many });
    expect(list.errors?.[0]?.extensions).toMatchObject({
      code: "BAD_USER_INPUT",
      argument: "where.user_in",
      limit: 200,
    });
    const cursor = await gql(`{ psmSwaps(before: "x") { nodes { id } } }`);
    expect(cursor.errors?.[0]?.extensions).toMatchObject({ code: "BAD_USER_INPUT", argument: "before" });
    const head = await s.indexedBlock();
    const past = await gql(`{ psmSwaps(block: { number: "${head + 1000}" }) { nodes { id } } }`);
    expect(past.errors?.[0]?.extensions).toMatchObject({ code: "BAD_USER_INPUT", reason: "block_not_indexed" });
    expect(Number(past.errors?.[0]?.extensions?.indexedHead)).toBeGreaterThanOrEqual(head);
  });
});

describe("_meta and block by hash", () => {
  it("_meta names the indexed head, the chain's hash and time of it; a block given by hash answers as by number", async () => {
    const head = await s.caughtUp();
    const data = await ok(`{ _meta { block { number hash timestamp } status indexedHead } }`);
    const n = BigInt(data._meta.block.number);
    expect(n).toBeGreaterThanOrEqual(BigInt(head));
    const block = await s.client.getBlock({ blockNumber: n });
    expect(data._meta.block).toEqual({
      number: String(n),
      hash: block.hash,
      timestamp: new Date(Number(block.timestamp) * 1000).toISOString(),
    });
    expect(data._meta.status).toBe("synced");
    const at = d.chains.base.historyEndBlock;
    const hash = (await s.client.getBlock({ blockNumber: BigInt(at) })).hash;
    const byHash = await ok(`{ psmSwaps(block: { hash: "${hash}" }) { totalCount } }`);
    const byNumber = await ok(`{ psmSwaps(block: { number: "${at}" }) { totalCount } }`);
    expect(byHash.psmSwaps.totalCount).toBe(byNumber.psmSwaps.totalCount);
  });

  it("Ponder's generated GraphQL is not served: /graphql is the one endpoint", async () => {
    const res = await fetch(`${s.indexerUrl}/ponder/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "{ psmSwaps(limit: 1001) { items { id } } }" }),
    });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: { code: "not_found" } });
  });
});
