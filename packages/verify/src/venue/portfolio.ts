/**
 * The account's value history (`portfolio`): per window (day, week, month, all time; combined and
 * perp-only) samples `[ms, value]` taken at the venue's cadence, each window ending now. It is the
 * venue's only public record of past equity, so an equity a statement recorded at a signed time
 * is checked by bracketing: it must lie between the samples around that time, within a stated
 * tolerance (the account moves between samples).
 */
import type { Address } from "viem";
import { venueNumber as num, postInfo, VENUE_TIMEOUT_MS } from "./post-info.js";
import { VenueReadError } from "./venue-read-error.js";

export type ValueSample = { time: number; value: number };
export type PortfolioWindow = { name: string; samples: ValueSample[] };

export async function readPortfolio(
  url: string,
  user: Address,
  timeoutMs = VENUE_TIMEOUT_MS,
): Promise<PortfolioWindow[]> {
  const body = { type: "portfolio", user };
  const ctx = { url, request: JSON.stringify(body) };
  const raw = await postInfo(url, body, timeoutMs);
  if (!Array.isArray(raw)) throw new VenueReadError("portfolio answer is not a list", ctx);
  return raw.map((entry) => {
    if (!Array.isArray(entry) || typeof entry[0] !== "string")
      throw new VenueReadError("portfolio entry is not [window, data]", ctx);
    const history = (entry[1] as { accountValueHistory?: unknown })?.accountValueHistory;
    if (!Array.isArray(history)) throw new VenueReadError(`portfolio ${entry[0]} lacks accountValueHistory`, ctx);
    const samples = history.map((s) => {
      if (!Array.isArray(s)) throw new VenueReadError("an account value sample is not [ms, value]", ctx);
      return { time: num(s[0], "sample time", ctx), value: num(s[1], "sample value", ctx) };
    });
    return { name: entry[0], samples: samples.sort((a, b) => a.time - b.time) };
  });
}

export type Bracket = {
  /** true: inside the samples' range widened by the tolerance; false: outside; null: no window covers the time. */
  inside: boolean | null;
  window: string | null;
  before: ValueSample | null;
  after: ValueSample | null;
  low: number | null;
  high: number | null;
  detail: string;
};

/** Perp-only windows first (the margin account's equity is what clearinghouseState reports), finest first. */
const PREFERENCE = ["perpDay", "perpWeek", "perpMonth", "perpAllTime", "day", "week", "month", "allTime"];

/**
 * Whether `equity` at `timeMs` lies between the samples around it (the venue's value now, `current`,
 * serves as the sample after the newest), within `tolerance` (a fraction of the larger sample).
 */
export function bracketEquity(
  windows: readonly PortfolioWindow[],
  timeMs: number,
  equity: number,
  tolerance: number,
  current: ValueSample | null,
): Bracket {
  const ordered = PREFERENCE.map((name) => windows.find((w) => w.name === name)).filter(
    (w): w is PortfolioWindow => w !== undefined && w.samples.length > 0,
  );
  for (const w of ordered) {
    const samples = current && current.time > w.samples.at(-1)!.time ? [...w.samples, current] : w.samples;
    if (timeMs < samples[0]!.time || timeMs > samples.at(-1)!.time) continue;
    const i = samples.findIndex((s) => s.time >= timeMs);
    const after = samples[i]!;
    const before = after.time === timeMs ? after : samples[i - 1]!;
    const slack = tolerance * Math.max(Math.abs(before.value), Math.abs(after.value));
    const low = Math.min(before.value, after.value) - slack;
    const high = Math.max(before.value, after.value) + slack;
    const inside = equity >= low && equity <= high;
    const at = (s: ValueSample) => `${s.value} at ${new Date(s.time).toISOString()}`;
    return {
      inside,
      window: w.name,
      before,
      after,
      low,
      high,
      detail: `${equity} ${inside ? "lies" : "does not lie"} between the ${w.name} samples ${at(before)} and ${at(after)} (± ${tolerance * 100} %: ${low.toFixed(2)} to ${high.toFixed(2)})`,
    };
  }
  return {
    inside: null,
    window: null,
    before: null,
    after: null,
    low: null,
    high: null,
    detail: `no account value history of the venue covers ${new Date(timeMs).toISOString()}`,
  };
}
