/**
 * The account's current state (`clearinghouseState`): equity, open notional and positions. The
 * venue serves it for now only, so a report records the answer it used (pins) and a reader can
 * re-read it only while the report is young.
 */
import type { Address } from "viem";
import { venueNumber as num, postInfo, VENUE_TIMEOUT_MS } from "./post-info.js";

export type VenueAccountState = {
  /** Account equity in USD (`marginSummary.accountValue`). */
  equityUsd: number;
  /** Absolute notional of open positions in USD. */
  notionalUsd: number;
  positions: {
    coin: string;
    size: number;
    entryPx: number | null;
    positionValueUsd: number;
    unrealizedPnlUsd: number | null;
  }[];
  /** The venue's own time of the answer, unix ms; null when the answer has none (never our clock in its place). */
  time: number | null;
};

export async function readAccountState(
  url: string,
  user: Address,
  timeoutMs = VENUE_TIMEOUT_MS,
): Promise<VenueAccountState> {
  const body = { type: "clearinghouseState", user };
  const ctx = { url, request: JSON.stringify(body) };
  const raw = (await postInfo(url, body, timeoutMs)) as {
    marginSummary?: { accountValue?: unknown; totalNtlPos?: unknown };
    assetPositions?: { position?: Record<string, unknown> }[];
    time?: unknown;
  };
  const positions = (raw.assetPositions ?? []).map(({ position: p = {} }) => ({
    coin: String(p.coin),
    size: num(p.szi, "szi", ctx),
    entryPx: p.entryPx == null ? null : num(p.entryPx, "entryPx", ctx),
    positionValueUsd: num(p.positionValue, "positionValue", ctx),
    unrealizedPnlUsd: p.unrealizedPnl == null ? null : num(p.unrealizedPnl, "unrealizedPnl", ctx),
  }));
  return {
    equityUsd: num(raw.marginSummary?.accountValue, "marginSummary.accountValue", ctx),
    notionalUsd: num(raw.marginSummary?.totalNtlPos, "marginSummary.totalNtlPos", ctx),
    positions,
    time: typeof raw.time === "number" && Number.isFinite(raw.time) ? raw.time : null,
  };
}
