/**
 * Reads of the derivatives venue's public per-address API (Hyperliquid `POST /info`). Only
 * current state is public, so a read either lands now or is unknown: callers turn a failure
 * into `null`, never into a guess.
 */

import { KusdError } from "@kusd/core";
import type { Address } from "viem";

export class VenueReadError extends KusdError<{ url: string; request: string; status?: number; cause?: string }> {
  override name = "VenueReadError";
  readonly code: string = "venue_read_failed";
  constructor(message: string, details: { url: string; request: string; status?: number; cause?: string }) {
    super(message, details);
  }
}

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

export type VenueClient = { url: string; clearinghouseState(user: Address): Promise<VenueAccountState> };

const num = (v: unknown, field: string, ctx: { url: string; request: string }): number => {
  const n = typeof v === "string" ? Number(v) : typeof v === "number" ? v : Number.NaN;
  if (!Number.isFinite(n)) throw new VenueReadError(`venue answer lacks ${field}`, ctx);
  return n;
};

export async function postInfo(url: string, body: Record<string, unknown>, timeoutMs = 5_000): Promise<unknown> {
  const request = JSON.stringify(body);
  let res: Response;
  try {
    res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: request,
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (e) {
    throw new VenueReadError("venue unreachable", { url, request, cause: (e as Error).message });
  }
  if (!res.ok) throw new VenueReadError(`venue answered ${res.status}`, { url, request, status: res.status });
  try {
    return await res.json();
  } catch (e) {
    throw new VenueReadError("venue answer is not JSON", { url, request, cause: (e as Error).message });
  }
}

/** `infoUrl` is the full /info endpoint (https://api.hyperliquid.xyz/info). */
export function hyperliquidClient(infoUrl: string, timeoutMs = 5_000): VenueClient {
  return {
    url: infoUrl,
    async clearinghouseState(user) {
      const body = { type: "clearinghouseState", user };
      const ctx = { url: infoUrl, request: JSON.stringify(body) };
      const raw = (await postInfo(infoUrl, body, timeoutMs)) as {
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
    },
  };
}

/** The replayable request behind a venue figure, as published in `verifyVia`. */
