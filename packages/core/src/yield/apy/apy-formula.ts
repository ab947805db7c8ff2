/**
 * The yield formulas of spec 2.4, one pure function per rule. Fractions throughout (0.0635 is
 * 6.35 %); `null` means unknown and propagates.
 */

export const FUNDING_WINDOW_DAYS = 60;
export const LEVERAGE_CAP = 12;
export const REALIZED_WINDOW_DAYS = 30;
export const HOURS_PER_YEAR = 8_760;

/** Rule 2: L = min(12, 1.5 + funding × 10), funding the 60-day trailing mean (annual fraction). */
export function leverage(fundingAnnual: number): number {
  return Math.min(LEVERAGE_CAP, 1.5 + fundingAnnual * 10);
}

/** Rule 1: the carry multiplier is L/(L+1), never L. */
export function carryMultiplier(l: number): number {
  return l / (l + 1);
}

export type HeadlineInputs = {
  stakingYield: number;
  fundingAnnual: number;
  strategyCostFraction: number;
  insuranceAllocation: number;
  protocolFee: number;
};

/**
 * Rule 1: headline = L/(L+1) × (staking yield + trailing funding) × (1 − strategy cost)
 * × (1 − insurance allocation) × (1 − protocol fee). Rule 3: no incentive in it. `atLeverage`
 * replaces the model's L (the measured venue leverage).
 */
export function headlineApy(i: HeadlineInputs, atLeverage?: number) {
  const l = atLeverage ?? leverage(i.fundingAnnual);
  const multiplier = carryMultiplier(l);
  const gross = multiplier * (i.stakingYield + i.fundingAnnual);
  const strategyNet = gross * (1 - i.strategyCostFraction);
  const net = strategyNet * (1 - i.insuranceAllocation) * (1 - i.protocolFee);
  return { leverage: l, carryMultiplier: multiplier, grossAPY: gross, strategyNetAPY: strategyNet, expectedAPY: net };
}

/** Mean of per-period funding rates, annualised by the period length in hours. */
export function annualiseMeanRate(rates: readonly number[], intervalHours: number): number | null {
  if (rates.length === 0) return null;
  return (rates.reduce((a, b) => a + b, 0) / rates.length) * (HOURS_PER_YEAR / intervalHours);
}

/** A venue's current rate per interval, annualised (interval 1 h or 8 h). */
export const annualRate = (rate: number, intervalHours: number) => rate * (HOURS_PER_YEAR / intervalHours);

/**
 * Staking yield as a 7-day simple moving average: the mean of the daily yields between
 * consecutive exchange-rate observations inside the window, annualised (× 365 / days apart).
 */
export function smaStakingYield(observations: readonly { t: number; rate: bigint }[]): number | null {
  const sorted = [...observations].sort((a, b) => a.t - b.t);
  const daily: number[] = [];
  for (let i = 1; i < sorted.length; i++) {
    const days = (sorted[i]!.t - sorted[i - 1]!.t) / 86_400;
    if (days <= 0) continue;
    daily.push((Number(sorted[i]!.rate) / Number(sorted[i - 1]!.rate) - 1) * (365 / days));
  }
  return daily.length ? daily.reduce((a, b) => a + b, 0) / daily.length : null;
}

/**
 * Share-price growth annualised on a 365-day year: (assets per share at `to` / at `from` − 1) ×
 * 365 / days between them; null over no time or from a zero price. The realized yield of
 * /api/apy and every window of the honesty board.
 */
export function annualizedGrowth(
  from: { t: number; assets: bigint },
  to: { t: number; assets: bigint },
): number | null {
  const days = (to.t - from.t) / 86_400;
  if (days <= 0 || from.assets === 0n) return null;
  return (Number(to.assets) / Number(from.assets) - 1) * (365 / days);
}

/** How far the measured span may stray from the window before it is flagged as clamped. */
export const WINDOW_SLACK_DAYS = 1;

/**
 * Rules 4 and 7: realized yield from two share prices (convertToAssets of one 1e24 share, in
 * kUSD wei) over the days between them; clamped when the history is shorter than the window.
 */
export function realizedAnnualized(
  start: { t: number; assetsPerShare: bigint },
  end: { t: number; assetsPerShare: bigint },
  windowDays = REALIZED_WINDOW_DAYS,
) {
  const days = (end.t - start.t) / 86_400;
  const annualized = annualizedGrowth(
    { t: start.t, assets: start.assetsPerShare },
    { t: end.t, assets: end.assetsPerShare },
  );
  if (annualized === null) return { annualized: null, days: 0, windowClamped: true };
  // Flagged whenever the span measured is not the window: a shorter history, or no observation
  // within a day of the window's start (the nearest earlier one is older, so the span is longer).
  // Share prices are observed every few hours, so a day's slack is the sampling, not a gap.
  return { annualized, days, windowClamped: Math.abs(days - windowDays) > WINDOW_SLACK_DAYS };
}

/** What an escrow balance can pay a book of `tvl` per year if spread over `daysLeft` days. */
export function sustainableApy(balance: number, tvl: number, daysLeft: number): number {
  return tvl > 0 && daysLeft > 0 ? (balance / tvl) * (365 / daysLeft) : 0;
}

/**
 * Rule 6: what the escrow would pay to reach its target, never above what it can sustain:
 * the funds left, spread over the eligible TVL for the days left.
 */
export function incentiveRates(i: {
  targetApy: number;
  baseApy: number;
  eligibleTvl: number;
  tvlCap: number;
  escrowBalance: number;
  daysLeft: number;
}) {
  const capBinding = i.eligibleTvl > i.tvlCap;
  const fundedTvl = Math.min(i.eligibleTvl, i.tvlCap);
  const sustainable = sustainableApy(i.escrowBalance, i.eligibleTvl, i.daysLeft);
  const wanted = Math.max(0, i.targetApy - i.baseApy) * (i.eligibleTvl > 0 ? fundedTvl / i.eligibleTvl : 0);
  const wouldPay = Math.min(wanted, sustainable);
  const dailyCost = (wouldPay * i.eligibleTvl) / 365;
  return {
    capBinding,
    sustainableAPY: sustainable,
    wouldPayAPY: wouldPay,
    taperBinding: wanted > sustainable,
    runwayDays: dailyCost > 0 ? i.escrowBalance / dailyCost : null,
  };
}
