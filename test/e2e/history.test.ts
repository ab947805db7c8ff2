/**
 * GET /api/history and GraphQL `history`: every point checked against direct chain reads at
 * its own block (totalSupply, balanceOf of each PSM, convertToAssets at the share-price
 * sample's block), and the redemptions against the indexed swaps in each point's window. DAY
 * and WEEK are dense: every period to the head's, a period without an indexed block carried.
 */

import { type Address, erc20Abi, erc4626Abi, formatUnits, zeroAddress } from "viem";
import { describe, expect, it } from "vitest";
import { stack } from "../helpers/stack.js";

const s = stack();
const d = s.deployment;
const PSMS = ["psmMint", "psmRetiredMint", "psmRedeemReserve"] as const;
const get = async (path: string) => {
  const res = await fetch(`${s.indexerUrl}${path}`);
  return { status: res.status, body: (await res.json()) as any };
};

async function readAt(block: bigint) {
  const bal = (token: Address, holder: Address) =>
    s.client.readContract({
      address: token,
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [holder],
      blockNumber: block,
    });
  const [supply, usdc, kusd] = await Promise.all([
    s.client.readContract({ address: s.addr("kUSD"), abi: erc20Abi, functionName: "totalSupply", blockNumber: block }),
    Promise.all(PSMS.map((k) => bal(s.addr("usdc"), s.addr(k)))),
    Promise.all(PSMS.map((k) => bal(s.addr("kUSD"), s.addr(k)))),
  ]);
  return { supply, usdc, outstanding: supply - kusd.reduce((a, b) => a + b, 0n) };
}

async function expectPointEqualsChain(p: any) {
  const chain = await readAt(BigInt(p.blockNumber));
  expect(p.kusdSupplyWei, `supply at ${p.blockNumber}`).toBe(chain.supply.toString());
  expect(p.kusdOutstandingWei, `outstanding at ${p.blockNumber}`).toBe(chain.outstanding.toString());
  for (const [i, k] of PSMS.entries())
    expect(p.psmUSDC[k], `${k} USDC at ${p.blockNumber}`).toBe(Number(formatUnits(chain.usdc[i]!, 6)));
  const usdcTotal = Number(
    formatUnits(
      chain.usdc.reduce((a, b) => a + b, 0n),
      6,
    ),
  );
  if (chain.outstanding > 0n)
    expect(p.backingRatio).toBeCloseTo(usdcTotal / Number(formatUnits(chain.outstanding, 18)), 7);
  if (p.skusdSharePrice) {
    const assets = await s.client.readContract({
      address: s.addr("skUSD"),
      abi: erc4626Abi,
      functionName: "convertToAssets",
      args: [10n ** 24n],
      blockNumber: BigInt(p.skusdSharePrice.blockNumber),
    });
    expect(p.skusdSharePrice.kusdPerShare).toBe(Number(formatUnits(assets, 18)));
  }
}

/** The last block dated before `t` (unix seconds), by bisection up to `hi`. */
async function lastBlockBefore(t: number, hi: bigint): Promise<bigint> {
  let lo = 0n;
  while (lo < hi) {
    const mid = (lo + hi + 1n) / 2n;
    if (Number((await s.client.getBlock({ blockNumber: mid })).timestamp) < t) lo = mid;
    else hi = mid - 1n;
  }
  return lo;
}

const graphql = async (query: string) => {
  const res = await fetch(`${s.indexerUrl}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query }),
  });
  const body = (await res.json()) as any;
  expect(body.errors).toBeUndefined();
  return body.data;
};

describe("history series", () => {
  it("DAY: each point equals direct reads at its block, and redemptions are those indexed in its day", async () => {
    await s.caughtUp();
    const { status, body } = await get("/api/history?interval=DAY");
    expect(status).toBe(200);
    expect(body.points.length).toBeGreaterThan(5);
    // A sample across the series: the first, the last, and some in between.
    const pts = body.points as any[];
    const sample = [
      ...new Set([0, 1, Math.floor(pts.length / 3), Math.floor(pts.length / 2), pts.length - 2, pts.length - 1]),
    ].map((i) => pts[i]);
    for (const p of sample) await expectPointEqualsChain(p);
    expect(pts.some((p) => p.skusdSharePrice !== null)).toBe(true);
    // Redemptions: the counts sum to the indexed redemptions up to the last point.
    const swaps = await s.db.select().from(s.schema.psmSwap);
    const redeems = swaps.filter(
      (w: any) =>
        w.direction === "redeem" &&
        w.blockNumber <= BigInt(pts.at(-1).blockNumber) &&
        w.blockNumber >= BigInt(pts[0].redemptions.fromBlock),
    );
    expect(pts.reduce((a, p) => a + p.redemptions.count, 0)).toBe(redeems.length);
    expect(redeems.length).toBeGreaterThan(0);
    for (const p of pts) expect(new Date(p.period.start).getUTCHours()).toBe(0);
  });

  it("BLOCKS: points exactly at fromBlock + k·step, equal to direct reads there; GraphQL serves the same series", async () => {
    const head = await s.caughtUp();
    const from = head - 400;
    const { body } = await get(`/api/history?interval=BLOCKS&fromBlock=${from}&toBlock=${head}&step=100`);
    expect(body.points.map((p: any) => p.blockNumber)).toEqual([from, from + 100, from + 200, from + 300, from + 400]);
    for (const p of body.points) await expectPointEqualsChain(p);
    const gql = (await (
      await fetch(`${s.indexerUrl}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          query: `{ history(interval: BLOCKS, fromBlock: "${from}", toBlock: "${head}", step: "100") { points { blockNumber kusdOutstanding psmUsdc backingRatio redemptions } } }`,
        }),
      })
    ).json()) as any;
    expect(gql.errors).toBeUndefined();
    expect(
      gql.data.history.points.map((p: any) => [
        p.blockNumber,
        p.kusdOutstanding,
        p.psmUsdc,
        p.backingRatio,
        p.redemptions,
      ]),
    ).toEqual(
      body.points.map((p: any) => [
        p.blockNumber,
        p.kusdOutstandingWei,
        p.psmUSDC.total,
        p.backingRatio,
        p.redemptions.count,
      ]),
    );
  });

  it("DAY is dense: one point per UTC day from the first event to the head's day, empty days carried", async () => {
    await s.caughtUp();
    const { body } = await get("/api/history?interval=DAY");
    const pts = body.points as any[];
    const DAY_MS = 86_400_000;
    const dayOf = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS;
    // The first point is a real one, on the UTC day of its block as the chain dates it.
    const firstBlock = await s.client.getBlock({ blockNumber: BigInt(pts[0].blockNumber) });
    const firstDay = dayOf(Number(firstBlock.timestamp) * 1000);
    expect(pts[0].carried).toBe(false);
    expect(Date.parse(pts[0].period.start)).toBe(firstDay);
    // No later than kUSD's first mint on chain.
    const [firstMint] = await s.client.getContractEvents({
      address: s.addr("kUSD"),
      abi: erc20Abi,
      eventName: "Transfer",
      args: { from: zeroAddress },
      fromBlock: 0n,
    });
    const mintDay = dayOf(Number((await s.client.getBlock({ blockNumber: firstMint!.blockNumber })).timestamp) * 1000);
    expect(firstDay).toBeLessThanOrEqual(mintDay);
    // Count: the days from the first event's through the indexed head's, both included.
    const headDay = dayOf(Date.parse(body.indexedHead.timestamp));
    expect(pts.length).toBe((headDay - firstDay) / DAY_MS + 1);
    for (const [i, p] of pts.entries()) expect(Date.parse(p.period.start)).toBe(firstDay + i * DAY_MS);
    // A carried day is the previous point to the figure, with its block; it saw no redemption.
    const figures = ({ period: _p, carried: _c, redemptions: _r, ...rest }: any) => rest;
    const carried = pts.map((p, i) => [p, pts[i - 1]] as const).filter(([p]) => p.carried);
    expect(carried.length).toBeGreaterThan(10);
    for (const [p, previous] of carried) {
      expect(figures(p)).toEqual(figures(previous));
      expect(p.redemptions).toEqual({ count: 0, kusd: 0, usdc: 0, fromBlock: null, toBlock: null });
    }
    // And the chain agrees: at the last block of a carried day, the state is the carried one.
    const [mid] = carried[Math.floor(carried.length / 2)]!;
    const endOfDay = await lastBlockBefore(Date.parse(mid.period.end) / 1000, BigInt(body.toBlock));
    expect(endOfDay).toBeGreaterThanOrEqual(BigInt(mid.blockNumber));
    await expectPointEqualsChain({ ...mid, blockNumber: Number(endOfDay) });
    // GraphQL serves the same points, carried flags included.
    const gql = await graphql(
      `{ history(interval: DAY) { points { periodStart blockNumber carried kusdOutstanding } } }`,
    );
    expect(gql.history.points.map((p: any) => [p.periodStart, p.blockNumber, p.carried, p.kusdOutstanding])).toEqual(
      pts.map((p) => [p.period.start, p.blockNumber, p.carried, p.kusdOutstandingWei]),
    );
  });

  it("WEEK is dense too, from Monday to Monday; a pinned toBlock ends on its own day", async () => {
    const { body } = await get("/api/history?interval=WEEK");
    const pts = body.points as any[];
    const WEEK_MS = 7 * 86_400_000;
    for (const [i, p] of pts.entries()) {
      expect(new Date(p.period.start).getUTCDay()).toBe(1);
      expect(Date.parse(p.period.start)).toBe(Date.parse(pts[0].period.start) + i * WEEK_MS);
    }
    expect(Date.parse(pts.at(-1).period.end)).toBeGreaterThan(Date.parse(body.indexedHead.timestamp));
    const end = d.chains.base.historyEndBlock;
    const pinned = (await get(`/api/history?interval=DAY&toBlock=${end}`)).body;
    const endTime = Number((await s.client.getBlock({ blockNumber: BigInt(end) })).timestamp);
    expect(pinned.points.at(-1).period.start).toBe(new Date(Math.floor(endTime / 86_400) * 86_400_000).toISOString());
    expect(pinned.points.every((p: any) => p.blockNumber <= end)).toBe(true);
  });

  it("refuses bad ranges with a 4xx and a code", async () => {
    const head = await s.caughtUp();
    expect((await get("/api/history?interval=HOUR")).status).toBe(400);
    expect((await get("/api/history?interval=BLOCKS")).body.error.code).toBe("history_range");
    expect((await get("/api/history?interval=BLOCKS&fromBlock=0&step=1")).status).toBe(400);
    expect((await get(`/api/history?toBlock=${head + 1000}`)).status).toBe(422);
    expect((await get("/api/history?step=0&interval=BLOCKS")).status).toBe(400);
  });
});
