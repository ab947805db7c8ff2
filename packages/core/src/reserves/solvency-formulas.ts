/**
 * Solvency formulas of spec 2.3. Inputs are plain numbers in USD or token units (already
 * converted from raw integers at the edge); `null` means "not known" and propagates.
 */

/** Rule 1: outstanding kUSD = totalSupply − kUSD held by the PSMs (inventory kept by PSM v1/v3, and by the live PSM while minting is off; its burns already left totalSupply). */
export function outstandingKusd(totalSupply: bigint, heldByPsms: readonly bigint[]): bigint {
  return totalSupply - heldByPsms.reduce((a, b) => a + b, 0n);
}

/** Rule 2: combined PSM USDC / outstanding kUSD (also primaryBackingRatio). Null when nothing is outstanding. */
export function psmSolvencyRatio(psmUsdc: number, outstanding: number): number | null {
  return outstanding > 0 ? psmUsdc / outstanding : null;
}

/** Rule 3: vault v1 tvlUSD + insurance fund USD + combined PSM USDC. Staking vaults and vault v2 never enter (rule 6). */
export function collateralUsd(parts: { vaultV1TvlUsd: number; insuranceFundUsd: number; psmUsdc: number }): number {
  return parts.vaultV1TvlUsd + parts.insuranceFundUsd + parts.psmUsdc;
}

/** Rule 4: collateralUSD / liabilitiesUSD (outstanding kUSD). */
export function aggregateCollateralRatio(collateral: number, liabilities: number): number | null {
  return liabilities > 0 ? collateral / liabilities : null;
}

export type VaultBuckets = {
  trackedOnChainEth: number;
  offChainAssetsEth: number;
  recognisedL1AssetsEth: number;
  hedgingReserveEth: number;
};

/** reserves.vault rule 1: tvlUSD is the sum of the four buckets at the report's ETH price. */
export function vaultTvlUsd(b: VaultBuckets, ethPriceUsd: number): number {
  return (b.trackedOnChainEth + b.offChainAssetsEth + b.recognisedL1AssetsEth + b.hedgingReserveEth) * ethPriceUsd;
}

export const RECONCILIATION = {
  reconciled: "reconciled",
  capped: "capped-to-live-venue",
  /**
   * Left unverified this cycle: the venue read failed, or the report is at a past block (the
   * venue publishes current equity only). Nothing of the mirror is recognised.
   */
  unverified: "unverified",
} as const;
export type ReconciliationStatus = (typeof RECONCILIATION)[keyof typeof RECONCILIATION];

/**
 * reserves.vault rule 2: the on-chain l1Assets mirror is recognised at min(mirror, live venue
 * equity); when the venue read fails, none of it is. The raw mirror is disclosed elsewhere.
 */
export function recogniseL1Assets(
  mirrorUsd: number,
  liveVenueEquityUsd: number | null,
): { recognisedUsd: number; excessUsd: number | null; status: ReconciliationStatus } {
  if (liveVenueEquityUsd === null) return { recognisedUsd: 0, excessUsd: null, status: RECONCILIATION.unverified };
  if (mirrorUsd <= liveVenueEquityUsd)
    return { recognisedUsd: mirrorUsd, excessUsd: 0, status: RECONCILIATION.reconciled };
  return {
    recognisedUsd: liveVenueEquityUsd,
    excessUsd: mirrorUsd - liveVenueEquityUsd,
    status: RECONCILIATION.capped,
  };
}

/**
 * solvency.status, from the two ratios (thresholds at exactly 1.0):
 * - fully-backed: PSM USDC alone covers outstanding kUSD 1:1 (psmSolvencyRatio ≥ 1);
 * - backed-with-vault-collateral: it does not, but collateralUSD covers it (aggregate ratio ≥ 1);
 * - under-collateralised: the aggregate ratio is below 1;
 * - unknown: the deciding ratio could not be computed (a read failed, or nothing is outstanding).
 */
export const SOLVENCY_STATUS = [
  "fully-backed",
  "backed-with-vault-collateral",
  "under-collateralised",
  "unknown",
] as const;
export type SolvencyStatus = (typeof SOLVENCY_STATUS)[number];

export function solvencyStatus(psmRatio: number | null, aggregateRatio: number | null): SolvencyStatus {
  if (psmRatio !== null && psmRatio >= 1) return "fully-backed";
  if (psmRatio === null || aggregateRatio === null) return "unknown";
  return aggregateRatio >= 1 ? "backed-with-vault-collateral" : "under-collateralised";
}

/** Percent companion fields: two decimals and a percent sign (0.0635 → "6.35%"). */
export function pct(fraction: number | null): string | null {
  return fraction === null ? null : `${(fraction * 100).toFixed(2)}%`;
}
