/**
 * Rules 4 and 5 of the hedge ledger (spec 2.5): the funding carry's denominator. Position hours
 * come from each record's sample count, notional-hours from its payment and rate.
 */

import { HOURS_PER_YEAR } from "../apy/apy-formula.js";
import type { FundingPayment, LedgerDenominator } from "./hedge-ledger-schema.js";
import { signedFundingUsd, usd } from "./hedge-ledger-sums.js";

/** Rule 5: the hours a record stands for; a record without a sample count is one hour. */
export const recordHours = (r: FundingPayment): number => (r.nSamples == null || r.nSamples < 1 ? 1 : r.nSamples);

/**
 * Notional-hours of a record is |szi| × price × hours. The record carries no price, but its
 * payment is usdc = Σ notional_h × rate_h, and its rate is the mean rate over its hours, so
 * |usdc / fundingRate| = |szi| × price × hours (exact for one hour; for an aggregated record,
 * the rate-weighted mean notional × hours). Undefined when the rate or the payment is zero.
 */
export const derivableNotional = (r: FundingPayment): boolean => r.fundingRate !== 0 && r.usdc !== 0;

/** The mark price a derivable record implies: |usdc| / (|rate| × hours × |szi|). */
const impliedPrice = (r: FundingPayment): number | null =>
  derivableNotional(r) && r.szi !== 0
    ? Math.abs(r.usdc) / (Math.abs(r.fundingRate) * recordHours(r) * Math.abs(r.szi))
    : null;

/**
 * Notional-hours per record, in time order. A zero-rate (or zero-payment) record still held the
 * position for its hours, so leaving it out would overstate the yield on notional; it is valued
 * at |szi| × hours × the price implied by the nearest earlier derivable record (the nearest
 * later one when none precedes). Null when no record implies a price at all.
 */
export function notionalHoursPerRecord(sorted: readonly FundingPayment[]): (number | null)[] {
  const prices = sorted.map(impliedPrice);
  return sorted.map((r, i) => {
    if (derivableNotional(r)) return Math.abs(r.usdc / r.fundingRate);
    if (r.szi === 0) return 0;
    let px: number | null = null;
    for (let j = i - 1; j >= 0 && px === null; j--) px = prices[j] ?? null;
    for (let j = i + 1; j < sorted.length && px === null; j++) px = prices[j] ?? null;
    return px === null ? null : Math.abs(r.szi) * px * recordHours(r);
  });
}

/** Rule 4: a fraction per year, on the same scale as expectedAPY; null without a denominator. */
export const annualisedOnNotional = (fundingUsd: number, notionalHoursUsd: number | null): number | null =>
  notionalHoursUsd === null || notionalHoursUsd <= 0 ? null : (fundingUsd / notionalHoursUsd) * HOURS_PER_YEAR;

export const DENOMINATOR_BASIS =
  "positionHours = Σ nSamples per userFunding record (1 when absent), never the record count; " +
  "notionalHoursUsd = Σ |szi| × price × hours per record, derived as |usdc / fundingRate| (the record's rate is its mean hourly rate); " +
  "records whose rate or payment is zero carry no price, are counted in zeroRateRecords and valued at |szi| × hours × the price implied by the nearest derivable record (earlier first); " +
  "timeWeightedNotionalUsd = notionalHoursUsd / positionHours; annualisedOnNotional = fundingUsd / notionalHoursUsd × 8760 (a fraction).";

export function buildDenominator(funding: readonly FundingPayment[]): LedgerDenominator {
  const sorted = [...funding].sort((a, b) => a.time - b.time);
  const positionHours = sorted.reduce((s, r) => s + recordHours(r), 0);
  const perRecord = notionalHoursPerRecord(sorted);
  const notional = perRecord.some((n) => n === null) ? null : perRecord.reduce<number>((s, n) => s + (n ?? 0), 0);
  const fundingUsd = signedFundingUsd(sorted);
  const annualised = annualisedOnNotional(fundingUsd, notional);
  return {
    fundingRecords: sorted.length,
    positionHours,
    notionalHoursUsd: notional === null ? null : usd(notional),
    timeWeightedNotionalUsd: notional === null || positionHours === 0 ? null : usd(notional / positionHours),
    annualisedOnNotional: annualised === null ? null : Math.round(annualised * 1e10) / 1e10,
    zeroRateRecords: sorted.filter((r) => !derivableNotional(r)).length,
    basis: DENOMINATOR_BASIS,
  };
}
