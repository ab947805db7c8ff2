/**
 * GET /api/history and GraphQL `history`: every point checked against direct chain reads at
 * its own block (totalSupply, balanceOf of each PSM, convertToAssets at the share-price
 * sample's block), and the redemptions against the indexed swaps in each point's window.
 */

import { type Address, erc20Abi, erc4626Abi, formatUnits } from "viem";
import { describe, expect, it } from "vitest";
import { stack } from "../helpers/stack.js";

const s = stack();
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

  it("refuses bad ranges with a 4xx and a code", async () => {
    const head = await s.caughtUp();
    expect((await get("/api/history?interval=HOUR")).status).toBe(400);
    expect((await get("/api/history?interval=BLOCKS")).body.error.code).toBe("history_range");
    expect((await get("/api/history?interval=BLOCKS&fromBlock=0&step=1")).status).toBe(400);
    expect((await get(`/api/history?toBlock=${head + 1000}`)).status).toBe(422);
    expect((await get("/api/history?step=0&interval=BLOCKS")).status).toBe(400);
  });
});
