/**
 * Deterministic market model shared by the scripted history and the venue simulator:
 * the ETH mark price and hourly funding rates are pure functions of time.
 */
import { hashUnit } from "../rng.js";
import { DAY, HISTORY_START, HOUR } from "../timeline.js";

const TAU = 2 * Math.PI;

/** ETH mark price in USD at unix time `t` (seconds), rounded to cents. */
export function ethPriceAt(t: number): number {
  const s = t - HISTORY_START;
  const hour = Math.floor(t / HOUR);
  const p =
    2600 +
    450 * Math.sin((TAU * s) / (47 * DAY)) +
    120 * Math.sin((TAU * s) / (6.5 * DAY)) +
    40 * (hashUnit(hour, 7) - 0.5);
  return Math.round(p * 100) / 100;
}

export function btcPriceAt(t: number): number {
  const s = t - HISTORY_START;
  return Math.round((98_000 + 6_000 * Math.sin((TAU * s) / (61 * DAY))) * 10) / 10;
}

/**
 * Hourly funding rate (fraction per hour) of the hedge venue for the hour starting at `t`.
 * A slow cycle around 0.00125 %/h (about 11 % a year) that dips below zero for stretches.
 */
export function hourlyFundingRate(t: number): number {
  const hour = Math.floor(t / HOUR);
  const cycle = 0.6 + 0.9 * Math.sin((TAU * hour) / (24 * 23));
  const rate = 0.0000125 * cycle + 0.00001 * (hashUnit(hour, 11) - 0.5);
  return Math.round(rate * 1e10) / 1e10;
}

/** Funding rate of the second venue, which settles every 8 hours (fraction per 8 hours). */
export function eightHourFundingRate(t: number): number {
  const start = Math.floor(t / (8 * HOUR)) * 8 * HOUR;
  let sum = 0;
  for (let h = 0; h < 8; h++) sum += hourlyFundingRate(start + h * HOUR);
  const rate = sum * 0.9 + 0.00002 * (hashUnit(start, 13) - 0.5);
  return Math.round(rate * 1e10) / 1e10;
}

export const hourFloor = (t: number) => Math.floor(t / HOUR) * HOUR;
