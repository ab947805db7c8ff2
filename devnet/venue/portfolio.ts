/**
 * `portfolio`: the account value and PnL graphs per window, in Hyperliquid's shape
 * (`[[window, {accountValueHistory, pnlHistory, vlm}], …]`, windows `day`, `week`, `month`,
 * `allTime` and their `perp…` twins; the nktkas/hyperliquid SDK's `PortfolioResponse`).
 *
 * Hyperliquid's "Portfolio graphs" page says the graphs are sampled "on deposits and
 * withdrawals and also every 15 minutes", that account value includes unrealized PnL, and that
 * PnL is account value net of deposits and withdrawals. The API answer thins the coarser
 * windows; the exact thinning is not documented, so the cadences below are ours: every sample
 * sits on a multiple of its window's cadence (stable from one request to the next), deposits
 * are sampled when they happen, and the last sample is now.
 */
import { DAY, HOUR } from "../timeline.js";
import { accountAt, MARGIN_DEPOSITS, tradedNotionalThrough } from "./hedge.js";

type Window = { name: string; spanSeconds: number | null; cadenceSeconds: number };

export const PORTFOLIO_WINDOWS: readonly Window[] = [
  { name: "day", spanSeconds: DAY, cadenceSeconds: 15 * 60 },
  { name: "week", spanSeconds: 7 * DAY, cadenceSeconds: HOUR },
  { name: "month", spanSeconds: 30 * DAY, cadenceSeconds: 4 * HOUR },
  { name: "allTime", spanSeconds: null, cadenceSeconds: DAY },
];

/** The account holds perpetuals only (no spot balance, no vault shares): its perp windows equal the combined ones. */
const perpTwin = (name: string) => `perp${name[0]!.toUpperCase()}${name.slice(1)}`;

type Series = { accountValueHistory: [number, string][]; pnlHistory: [number, string][]; vlm: string };

const EMPTY: Series = { accountValueHistory: [], pnlHistory: [], vlm: "0.0" };

/** The account opens with its first deposit; allTime starts there. */
const accountOpenedAt = () => MARGIN_DEPOSITS[0]!.at;

const windowStart = (window: Window, now: number) =>
  window.spanSeconds === null ? accountOpenedAt() : Math.max(now - window.spanSeconds, accountOpenedAt());

function sampleTimes(window: Window, now: number): number[] {
  const start = windowStart(window, now);
  if (start > now) return [];
  const times = new Set<number>();
  for (let t = Math.ceil(start / window.cadenceSeconds) * window.cadenceSeconds; t <= now; t += window.cadenceSeconds)
    times.add(t);
  for (const d of MARGIN_DEPOSITS) if (d.at >= start && d.at <= now) times.add(d.at);
  times.add(now);
  return [...times].sort((a, b) => a - b);
}

function series(window: Window, now: number, decimal: (x: number) => string): Series {
  const times = sampleTimes(window, now);
  if (times.length === 0) return EMPTY;
  const accountValueHistory: [number, string][] = [];
  const pnlHistory: [number, string][] = [];
  for (const t of times) {
    const a = accountAt(t);
    accountValueHistory.push([t * 1000, decimal(a.equityUsd)]);
    pnlHistory.push([t * 1000, decimal(a.equityUsd - a.depositsUsd)]);
  }
  const vlm = tradedNotionalThrough(now) - tradedNotionalThrough(windowStart(window, now));
  return { accountValueHistory, pnlHistory, vlm: decimal(vlm) };
}

export function hedgePortfolio(now: number, decimal: (x: number) => string): [string, Series][] {
  const combined = PORTFOLIO_WINDOWS.map((w) => [w.name, series(w, now, decimal)] as [string, Series]);
  return [...combined, ...combined.map(([name, s]) => [perpTwin(name), s] as [string, Series])];
}

/** What the venue answers for an address it holds no account for: every window, no samples. */
export function emptyPortfolio(): [string, Series][] {
  const names = PORTFOLIO_WINDOWS.map((w) => w.name);
  return [...names, ...names.map(perpTwin)].map((name) => [name, EMPTY]);
}
