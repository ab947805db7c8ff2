/** Rules 1 and 2 of the hedge ledger (spec 2.5): the sums, at the venue's own precision. */
import type { Fill, FundingPayment, LedgerSums } from "./hedge-ledger-schema.js";

/** USD figures are published at the venue's own precision (6 decimals); −0 is folded to 0. */
export const usd = (x: number): number => {
  const r = Math.round(x * 1e6) / 1e6;
  return r === 0 ? 0 : r;
};

/** Rule 1. Closed PnL is one leg of the hedge (the spot leg offsets it), so this is not profit. */
export const netUsd = (fundingUsd: number, closedPnlUsd: number, feesUsd: number): number =>
  fundingUsd + closedPnlUsd - feesUsd;

/** Rule 2: the signed sum; a payment the account made subtracts and nothing is clamped at zero. */
export const signedFundingUsd = (records: readonly FundingPayment[]): number => records.reduce((s, r) => s + r.usdc, 0);

export function sumLedger(funding: readonly FundingPayment[], fills: readonly Fill[]): LedgerSums {
  const fundingUsd = signedFundingUsd(funding);
  const feesUsd = fills.reduce((s, f) => s + f.fee, 0);
  const closedPnlUsd = fills.reduce((s, f) => s + f.closedPnl, 0);
  return {
    fundingUsd: usd(fundingUsd),
    feesUsd: usd(feesUsd),
    closedPnlUsd: usd(closedPnlUsd),
    netUsd: usd(netUsd(fundingUsd, closedPnlUsd, feesUsd)),
    fundingEvents: funding.length,
    fills: fills.length,
  };
}
