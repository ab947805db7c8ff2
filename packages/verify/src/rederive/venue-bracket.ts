/**
 * The venue equity a statement or report recorded, checked against the venue's public account
 * value history around the time the venue answered: the one check a reader can make of an equity
 * the venue no longer serves.
 */
import type { Address } from "viem";
import { type Bracket, bracketEquity } from "../venue/portfolio.js";
import { VenueReader } from "../venue/venue-reader.js";

/** How far a recorded equity may lie outside the samples around it, as a fraction of the larger sample. */
export const DEFAULT_BRACKET_TOLERANCE = 0.02;

/** The reader's venue: where they read it, and the bracket's tolerance. */
export type ReaderVenue = { url: string; bracketTolerance: number };

export async function bracketRecordedEquity(
  venue: ReaderVenue,
  account: Address,
  timeMs: number,
  equity: number,
): Promise<Bracket> {
  const reader = new VenueReader(venue.url);
  const [windows, state] = await Promise.all([reader.portfolio(account), reader.accountState(account)]);
  const current = { time: state.time ?? Date.now(), value: state.equityUsd };
  return bracketEquity(windows, timeMs, equity, venue.bracketTolerance, current);
}
