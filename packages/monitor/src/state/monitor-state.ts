/**
 * What a monitor remembers between polls, whichever store keeps it (a file, or PostgreSQL shared
 * by a group of monitors): the final floor, the alerted items still inside the reorg window, the
 * conditions in progress and the risk triggers as last seen.
 */
import type { ConditionKind, ConditionState } from "../conditions.js";
import type { RiskState } from "../risk-watch.js";

export type FeedKind =
  | "violation"
  | "minter_grant"
  | "minter_role_change"
  | "psm_pause"
  | "redemption"
  | "backing_ratio";
export type FeedItem = { id: string; blockNumber: number; [k: string]: unknown };

export type MonitorState = {
  floor: number;
  alerted: Record<string, { kind: FeedKind; blockNumber: number; item: FeedItem }>;
  /** Conditions in progress (statement_stale, venue_unreadable). */
  conditions?: Partial<Record<ConditionKind, ConditionState>>;
  /** Triggers out of their safe state and gaps, as last seen (see risk-watch.ts). */
  risk?: RiskState;
  /** The block of that last risk-status read. */
  riskBlock?: number;
};

/** A state and the version it was read at: a commit names the version it builds on. */
export type Versioned = { state: MonitorState; version: number };
