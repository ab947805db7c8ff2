/**
 * The staking side of the yield report: each LST's 7-day simple moving average of daily
 * exchange-rate growth, and their plain mean. An LST with too few observations is null and
 * left out of the mean rather than counted as zero.
 */
import { z } from "zod";
import { smaStakingYield } from "./apy-formula.js";
import type { ApyInputs } from "./apy-inputs.js";
import { DAY, Fraction } from "./apy-json-types.js";

export const LstYieldsSchema = z
  .record(z.string(), Fraction.nullable())
  .describe("keyed by LST symbol: its 7-day SMA staking yield; null with fewer than two observations in the window");

export type StakingMeasures = { lstYields: Record<string, number | null>; stakingYield: number | null };

export function measureStaking({ lsts, lstRates, now }: Pick<ApyInputs, "lsts" | "lstRates" | "now">): StakingMeasures {
  // Half a day past seven, so the observation that opens the first of seven daily intervals is in.
  const from = now - 7 * DAY - DAY / 2;
  const lstYields: Record<string, number | null> = {};
  for (const symbol of Object.keys(lsts)) {
    const obs = lstRates
      .filter((r) => r.symbol === symbol && Number(r.timestamp) >= from)
      .map((r) => ({ t: Number(r.timestamp), rate: r.rate }));
    lstYields[symbol] = smaStakingYield(obs);
  }
  const known = Object.values(lstYields).filter((x): x is number => x !== null);
  return { lstYields, stakingYield: known.length ? known.reduce((a, b) => a + b, 0) / known.length : null };
}

/** Where each LST's rate comes from, for sources.stakingSource. */
export function stakingSourceText(lsts: ApyInputs["lsts"]): string {
  const each = Object.entries(lsts).map(([symbol, l]) =>
    l.kind === "rate-event"
      ? `${symbol}: indexed ExchangeRateUpdated of ${l.address}`
      : `${symbol}: indexed updates of the ${l.feed.description} feed ${l.address} (latestRoundData, read every ${l.intervalBlocks} blocks)`,
  );
  return each.join("; ") || "no LST configured";
}
