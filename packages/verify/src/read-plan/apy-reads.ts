/**
 * The reads behind /api/apy that the service and a reader make the same way: the venue's funding
 * window, current rates and hedge account (all or none: one failed read makes the venue unknown),
 * and the incentive escrow's and skUSD's views at the report's block, each null when it fails.
 */
import type { EscrowReads, NetworkConfig, VenueInputs } from "@kusd/core";
import { DAY, FUNDING_WINDOW_DAYS } from "@kusd/core";
import type { Address } from "viem";
import { VenueReadError } from "../venue/venue-read-error.js";
import type { VenueReader } from "../venue/venue-reader.js";
import type { PinnedReader, ReadSpec } from "./pinned-reader.js";

/** The funding window of a report dated `now` (unix s): the 60 days before it, in ms. */
export const fundingWindow = (now: number) => ({
  startMs: (now - FUNDING_WINDOW_DAYS * DAY) * 1000,
  endMs: now * 1000,
});

/** The venue as the report knows it when nothing could be read (or none is configured). */
export function unknownVenue(
  network: NetworkConfig,
  error: string,
  requests: VenueInputs["requests"] = [],
): VenueInputs {
  const { name, url, account, coin } = network.reporting.venue;
  return { name, url, account, coin, error, hourlyFundingRates: [], predicted: [], hedgeAccount: null, requests };
}

/** The hedge account as the yield report uses it, from a clearinghouseState answer. */
export function hedgeAccountOf(state: {
  equityUsd: number;
  notionalUsd: number;
  positions?: { size: number }[];
}): NonNullable<VenueInputs["hedgeAccount"]> {
  // A client that reports no positions array holds none (the report has always read it so).
  return {
    equityUsd: state.equityUsd,
    notionalUsd: state.notionalUsd,
    positions: (state.positions ?? []).map((p) => ({ size: p.size })),
  };
}

/** The venue's three reads for a report dated `now`; a venue that fails any is unknown this time. */
export async function readApyVenue(
  venue: VenueReader | null,
  network: NetworkConfig,
  now: number,
): Promise<VenueInputs> {
  const { name, url, account, coin } = network.reporting.venue;
  if (!venue) return unknownVenue(network, "venue not configured");
  try {
    const w = fundingWindow(now);
    const [rates, predicted] = await Promise.all([
      venue.fundingHistory(coin, w.startMs, w.endMs),
      venue.predictedFundings(coin),
    ]);
    const state = await venue.accountState(account);
    return {
      name,
      url,
      account,
      coin,
      error: null,
      hourlyFundingRates: rates.map((r) => r.rate),
      predicted,
      hedgeAccount: hedgeAccountOf(state),
      requests: venue.requests,
    };
  } catch (e) {
    if (!(e instanceof VenueReadError)) throw e;
    return unknownVenue(network, e.message);
  }
}

/** Each escrow read by the field of EscrowReads it fills, in the order they are sent. */
export function escrowReadSpecs(
  escrow: Address,
  skUSD: Address,
  operator: Address,
): Record<keyof EscrowReads, ReadSpec> {
  return {
    targetApyBps: { to: escrow, signature: "targetApyBps()(uint256)" },
    tvlCap: { to: escrow, signature: "tvlCap()(uint256)" },
    endsAt: { to: escrow, signature: "endsAt()(uint256)" },
    totalFunded: { to: escrow, signature: "totalFunded()(uint256)" },
    totalDistributed: { to: escrow, signature: "totalDistributed()(uint256)" },
    balance: { to: escrow, signature: "balance()(uint256)" },
    totalAssets: { to: skUSD, signature: "totalAssets()(uint256)" },
    yieldVestingPeriod: { to: skUSD, signature: "yieldVestingPeriod()(uint256)" },
    insiderShares: { to: skUSD, signature: "balanceOf(address)(uint256)", args: [operator] },
    totalSupply: { to: skUSD, signature: "totalSupply()(uint256)" },
  };
}

/** The escrow's and skUSD's views at the reader's block, each null when it fails, with the command reproducing each. */
export async function readEscrowViews(r: PinnedReader, network: NetworkConfig, escrow: Address) {
  const vault = network.stakingVaults.skUSD.address;
  const specs = escrowReadSpecs(escrow, vault, network.reporting.operator);
  const keys = Object.keys(specs) as (keyof EscrowReads)[];
  const values = await Promise.all(keys.map((k) => r.call<bigint>(specs[k]).catch(() => null)));
  const reads = Object.fromEntries(keys.map((k, j) => [k, values[j] ?? null])) as EscrowReads;
  const command = (k: keyof EscrowReads, field: string, decimals?: number) =>
    r.command(specs[k], field, reads[k] ?? "?", decimals);
  return {
    reads,
    verifyVia: {
      targetApyBps: command("targetApyBps", "incentive.targetAPY (bps)"),
      balance: command("balance", "incentive.escrowBalanceUSD", 18),
      tvlCap: command("tvlCap", "incentive.tvlCapUSD", 18),
      totalAssets: command("totalAssets", "incentive.eligibleTVL", 18),
      insiderShares: command("insiderShares", "genesisCohort insider shares", 24),
      yieldVestingPeriod: command("yieldVestingPeriod", "genesisCohort.vestingPeriodSeconds"),
    },
  };
}
