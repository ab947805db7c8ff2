/**
 * GET /api/apy on the devnet: the headline equals an independent computation from the venue
 * simulator's funding history and the indexed LST rates; realized comes from the skUSD share
 * price; a venue failure gives the specified nulls and no 5xx.
 */

import { asc, eq } from "drizzle-orm";
import { parseAbi } from "viem";
import { afterEach, describe, expect, inject, it } from "vitest";
import { stack } from "../helpers/stack.js";

const s = stack();
const d = s.deployment;
const DAY = 86_400;
const get = async () => {
  const res = await fetch(`${s.indexerUrl}/api/apy`);
  return { status: res.status, body: (await res.json()) as any };
};
const setVenueFaults = (faults: unknown[]) =>
  fetch(`${inject("venueProxyUrl")}/__proxy/faults`, { method: "POST", body: JSON.stringify(faults) });

afterEach(async () => {
  await setVenueFaults([]);
});

describe("GET /api/apy", () => {
  it("headline = L/(L+1) × (staking + funding) × (1 − costs), from the venue's 60-day funding and the indexed LST rates", async () => {
    const { status, body } = await get();
    expect(status).toBe(200);
    const now = Date.parse(body.timestamp) / 1000;
    // Funding: the simulator's hourly records over the 60 days before the report, paged.
    const rates: number[] = [];
    let start = (now - 60 * DAY) * 1000;
    for (;;) {
      const page = (await (
        await fetch(`${d.venue.url}/info`, {
          method: "POST",
          body: JSON.stringify({ type: "fundingHistory", coin: "ETH", startTime: start, endTime: now * 1000 }),
        })
      ).json()) as { fundingRate: string; time: number }[];
      rates.push(...page.map((r) => Number(r.fundingRate)));
      if (page.length < 500) break;
      start = page.at(-1)!.time + 1;
    }
    const funding = (rates.reduce((a, b) => a + b, 0) / rates.length) * 8760;
    expect(body.sources.fundingEntries).toBe(rates.length);
    expect(body.fundingRate).toBeCloseTo(funding, 7);
    // Staking: mean daily growth over the last 7 days per LST, × 365, averaged over the LSTs.
    const rows = await s.db.select().from(s.schema.lstRate).orderBy(asc(s.schema.lstRate.timestamp));
    const yields = ["wstETH", "cbETH"].map((sym) => {
      const obs = rows.filter((r) => r.symbol === sym && Number(r.timestamp) >= now - 7 * DAY - DAY / 2);
      const daily = obs
        .slice(1)
        .map(
          (r, i) =>
            (Number(r.rate) / Number(obs[i]!.rate) - 1) *
            (365 / ((Number(r.timestamp) - Number(obs[i]!.timestamp)) / DAY)),
        );
      return daily.reduce((a, b) => a + b, 0) / daily.length;
    });
    const staking = (yields[0]! + yields[1]!) / 2;
    expect(body.stakingYield).toBeCloseTo(staking, 7);
    const L = Math.min(12, 1.5 + funding * 10);
    const expected = (L / (L + 1)) * (staking + funding) * (1 - 0.1) * (1 - 0.1) * (1 - 0);
    expect(body.sources.leverage).toBeCloseTo(L, 5);
    expect(body.expectedAPY).toBeCloseTo(expected, 6);
    expect(body.organicAPY).toBe(body.expectedAPY);
    expect(body.apy).toBeCloseTo(expected * 100, 3);
    expect(body.fundingRates.HlPerp.interval).toBe("1h");
    expect(body.fundingRates.BinPerp.interval).toBe("8h");
    expect(body.fundingRates.HlPerp.annual).toBeCloseTo(body.fundingRates.HlPerp.rate * 8760, 9);
    expect(body.fundingRates.BinPerp.annual).toBeCloseTo(body.fundingRates.BinPerp.rate * 1095, 9);
    expect(Number.isNaN(Date.parse(body.timestamp))).toBe(false);
  });

  it("realized is the 30-day annualized growth of the indexed skUSD share price", async () => {
    const { body } = await get();
    const prices = await s.db
      .select()
      .from(s.schema.sharePrice)
      .where(eq(s.schema.sharePrice.vaultKey, "skUSD"))
      .orderBy(asc(s.schema.sharePrice.blockNumber));
    const to = prices.find((p) => Number(p.blockNumber) === body.realized.toBlock)!;
    const from = prices.find((p) => Number(p.blockNumber) === body.realized.fromBlock)!;
    const days = (Number(to.timestamp) - Number(from.timestamp)) / DAY;
    expect(days).toBeGreaterThanOrEqual(29.9);
    expect(body.realized.annualized).toBeCloseTo(
      (Number(to.assetsPerShare) / Number(from.assetsPerShare) - 1) * (365 / days),
      7,
    );
    expect(body.realized.windowDays).toBe(30);
    // Clamped exactly when the measured span strays more than a day from the window.
    expect(body.realized.measuredDays).toBeCloseTo(days, 3);
    expect(body.realized.windowClamped).toBe(Math.abs(days - 30) > 1);
    expect(body.incentive.wouldPayAPY).toBeLessThanOrEqual(body.incentive.sustainableAPY);
    // Genesis cohort: insider (the operator's skUSD) plus external stake is the vault's TVL.
    const g = body.genesisCohort;
    expect(g.insiderStakedUSD + g.externalStakedUSD).toBeCloseTo(body.incentive.eligibleTVL, 0);
    expect(g.deliveredAtBook).toHaveLength(4);
    expect(g.vestingPeriodSeconds).toBe(
      Number(
        await s.client.readContract({
          address: s.addr("skUSD"),
          abi: parseAbi(["function yieldVestingPeriod() view returns (uint256)"]),
          functionName: "yieldVestingPeriod",
        }),
      ),
    );
    expect(body.framing.throughCycleBandPct[0]).toBeLessThanOrEqual(body.framing.throughCycleBandPct[1]);
    expect(body.incentive.lastVaultDistribution.txHash).toMatch(/^0x[0-9a-f]{64}$/);
  });

  it("a venue failure nulls the venue fields (venueConfigured and reconciles null), without a 5xx", async () => {
    await setVenueFaults([{ mode: "http500" }]);
    const { status, body } = await get();
    expect(status).toBe(200);
    expect(body.isLive).toBe(false);
    expect(body.venueLeverage.venueConfigured).toBeNull();
    expect(body.venueLeverage.reconciles).toBeNull();
    expect(body.fundingRate).toBeNull();
    expect(body.expectedAPY).toBeNull();
    expect(body.measuredVenue.available).toBe(false);
    expect(body.stakingYield).not.toBeNull(); // on-chain inputs still land
  });
});
