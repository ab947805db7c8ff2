/**
 * Time-range requests as the venue pages them: at most `pageLimit` records an answer (500 for
 * funding, funding payments and ledger updates; 2,000 for fills), the next page starting 1 ms past
 * the latest time of the last (fills come newest first within a page, so the largest time, not the
 * last element), and a page shorter than the limit ending the range. `key` drops a record seen
 * twice at a page boundary.
 */
import { postInfo, VENUE_TIMEOUT_MS } from "./post-info.js";
import { VenueReadError } from "./venue-read-error.js";

/** Records per answer of a time-range request (Hyperliquid's info endpoint documentation). */
export const TIME_RANGE_PAGE = 500;
export const FILLS_PAGE = 2_000;
/** A runaway guard: 200 pages of 500 hourly records is over eleven years. */
export const MAX_PAGES = 200;

export type Paged<T> = { records: T[]; pages: number; receivedAtMs: number };

export type PageOptions = { pageLimit?: number; timeoutMs?: number; now?: () => number };

export async function pageByTime<T extends { time: number }>(
  url: string,
  body: Record<string, unknown>,
  startMs: number,
  endMs: number,
  parse: (raw: unknown, ctx: { url: string; request: string }) => T,
  key: (r: T) => string,
  o: PageOptions = {},
): Promise<Paged<T>> {
  const pageLimit = o.pageLimit ?? TIME_RANGE_PAGE;
  const seen = new Set<string>();
  const records: T[] = [];
  let startTime = startMs;
  for (let pages = 1; ; pages++) {
    if (pages > MAX_PAGES)
      throw new VenueReadError(`more than ${MAX_PAGES} pages`, { url, request: JSON.stringify(body) });
    const request = { ...body, startTime, endTime: endMs };
    const ctx = { url, request: JSON.stringify(request) };
    const raw = await postInfo(url, request, o.timeoutMs ?? VENUE_TIMEOUT_MS);
    if (!Array.isArray(raw)) throw new VenueReadError("venue answer is not a list", ctx);
    const page = raw.map((r) => parse(r, ctx));
    for (const r of page) {
      const k = key(r);
      if (seen.has(k)) continue;
      seen.add(k);
      records.push(r);
    }
    if (page.length < pageLimit)
      return { records: records.sort((a, b) => a.time - b.time), pages, receivedAtMs: (o.now ?? Date.now)() };
    startTime = Math.max(...page.map((r) => r.time)) + 1;
  }
}
