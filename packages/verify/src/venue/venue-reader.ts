/**
 * The venue as one report reads it: every request it makes is recorded as the report publishes it
 * (`pins.venue.requests`: the body as sent, the pages, when the venue answered, and for current
 * state the answer itself), so the service builds its pins from the same object a reader
 * re-reads with.
 */
import type { Fill, FundingPayment, PredictedFundings, VenueRequestPin } from "@kusd/core";
import type { Address } from "viem";
import { readAccountState, type VenueAccountState } from "./account-state.js";
import { type FillRetention, fillRetention } from "./fills-retention.js";
import {
  type FundingRate,
  type LedgerUpdate,
  parseFill,
  parseFundingPayment,
  parseFundingRate,
  parseLedgerUpdate,
} from "./history-records.js";
import { FILLS_PAGE, type Paged, pageByTime } from "./paging.js";
import { type PortfolioWindow, readPortfolio } from "./portfolio.js";
import { postInfo, VENUE_TIMEOUT_MS } from "./post-info.js";
import { VenueReadError } from "./venue-read-error.js";

export type VenueReaderOptions = { timeoutMs?: number; now?: () => number };

export class VenueReader {
  readonly requests: VenueRequestPin[] = [];
  private readonly timeoutMs: number;
  private readonly now: () => number;

  constructor(
    readonly url: string,
    o: VenueReaderOptions = {},
  ) {
    this.timeoutMs = o.timeoutMs ?? VENUE_TIMEOUT_MS;
    this.now = o.now ?? Date.now;
  }

  private page<T extends { time: number }>(
    body: Record<string, unknown>,
    startMs: number,
    endMs: number,
    parse: (raw: unknown, ctx: { url: string; request: string }) => T,
    key: (r: T) => string,
    pageLimit?: number,
  ): Promise<Paged<T>> {
    return pageByTime(this.url, body, startMs, endMs, parse, key, {
      timeoutMs: this.timeoutMs,
      now: this.now,
      ...(pageLimit && { pageLimit }),
    });
  }

  private recordHistory(body: Record<string, unknown>, startMs: number, endMs: number, paged: Paged<unknown>) {
    this.requests.push({
      request: { ...body, startTime: startMs, endTime: endMs },
      history: true,
      pages: paged.pages,
      records: paged.records.length,
      venueTimeMs: null,
      receivedAtMs: paged.receivedAtMs,
    });
  }

  /** Current state only: the answer is recorded, since no one can read it again. */
  async accountState(user: Address): Promise<VenueAccountState> {
    const state = await readAccountState(this.url, user, this.timeoutMs);
    this.recordNow({ type: "clearinghouseState", user }, state.time, state);
    return state;
  }

  recordNow(request: Record<string, unknown>, venueTimeMs: number | null, answer: unknown, receivedAtMs = this.now()) {
    this.requests.push({ request, history: false, pages: 1, records: null, venueTimeMs, receivedAtMs, answer });
  }

  /** The venues' current funding for `coin` (the answer lists every coin; only `coin`'s is kept). */
  async predictedFundings(coin: string): Promise<PredictedFundings> {
    const body = { type: "predictedFundings" };
    const raw = await postInfo(this.url, body, this.timeoutMs);
    if (!Array.isArray(raw))
      throw new VenueReadError("predictedFundings answer is not a list", {
        url: this.url,
        request: JSON.stringify(body),
      });
    const answer = (raw as PredictedFundings).filter((entry) => Array.isArray(entry) && entry[0] === coin);
    this.recordNow(body, null, answer);
    return answer;
  }

  async fundingHistory(coin: string, startMs: number, endMs: number): Promise<FundingRate[]> {
    const body = { type: "fundingHistory", coin };
    const paged = await this.page(body, startMs, endMs, parseFundingRate, (r) => String(r.time));
    this.recordHistory(body, startMs, endMs, paged);
    return paged.records;
  }

  async userFunding(user: Address, startMs: number, endMs: number): Promise<FundingPayment[]> {
    const body = { type: "userFunding", user };
    const paged = await this.page(body, startMs, endMs, parseFundingPayment, (r) => `${r.coin}:${r.time}`);
    this.recordHistory(body, startMs, endMs, paged);
    return paged.records;
  }

  /**
   * Fills in [startMs, endMs], and whether the venue still serves every fill since `startMs` (it keeps
   * the 10,000 most recent): counted from startMs to now, so the count says what retention cut.
   */
  async userFills(user: Address, startMs: number, endMs: number): Promise<{ fills: Fill[]; retention: FillRetention }> {
    const body = { type: "userFillsByTime", user };
    const paged = await this.page(
      body,
      startMs,
      Math.max(endMs, this.now()),
      parseFill,
      (f) => String(f.tid),
      FILLS_PAGE,
    );
    const fills = paged.records.filter((f) => f.time <= endMs);
    this.recordHistory(body, startMs, endMs, { ...paged, records: fills });
    return { fills, retention: fillRetention(paged.records.map((f) => f.time)) };
  }

  async ledgerUpdates(user: Address, startMs: number, endMs: number): Promise<LedgerUpdate[]> {
    const body = { type: "userNonFundingLedgerUpdates", user };
    const paged = await this.page(body, startMs, endMs, parseLedgerUpdate, (r) => `${r.hash}:${r.time}:${r.type}`);
    this.recordHistory(body, startMs, endMs, paged);
    return paged.records;
  }

  /** The account value history (windows ending now): what a recorded equity is bracketed against. */
  portfolio(user: Address): Promise<PortfolioWindow[]> {
    return readPortfolio(this.url, user, this.timeoutMs);
  }
}
