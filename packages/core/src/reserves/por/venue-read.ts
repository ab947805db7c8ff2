/**
 * Which venue equity the mirror (vault v1's l1Assets) is reconciled against. The venue publishes
 * current equity only, so a report at the head reads it live; a report at a block a signed
 * statement recorded a reading at, or at a past block, uses the reading recorded nearest at or
 * before it, so the statement's figures can be reproduced at its own block. A recorded reading counts only while it is at most
 * RECORDED_VENUE_MAX_AGE_SECONDS older than the block (two hourly statements); otherwise, and
 * with no reading at all, none of the mirror is recognised (spec 2.3 rule 2), as when the venue
 * cannot be read.
 */
import { z } from "zod";
import { hash32Schema, isoTimeSchema } from "../../schema-primitives.js";

export const RECORDED_VENUE_MAX_AGE_SECONDS = 7_200;

export const VENUE_SOURCES = ["live", "recorded", "none"] as const;
export type VenueSource = (typeof VENUE_SOURCES)[number];

/** A venue answer as the report needs it: the equity, and the venue's own time of the answer (unix ms; null when it gave none). */
export type VenueEquity = { equityUsd: number; time?: number | null };

/** A reading a statement recorded: its block, the statement, and the venue's answer (null, with the reason, when that read failed). */
export type RecordedVenueReading = {
  blockNumber: number;
  statement: string | null;
  statementUrl: string | null;
  state: VenueEquity | null;
  reason: string | null;
  readAtMs: number;
};

/** The venue side of a report: what counts, and where it came from. */
export type VenueBasis = {
  source: VenueSource;
  state: VenueEquity | null;
  /** Why nothing counts (source none); null otherwise. */
  reason: string | null;
  /** Seconds between the answer and the report's moment (now at the head, the block's time in the past). */
  ageSeconds: number | null;
  recorded: Omit<RecordedVenueReading, "state" | "reason" | "readAtMs"> | null;
  /** This service's clock when the answer arrived (unix ms); null when there is no answer. */
  receivedAtMs: number | null;
};

export const VenueReadSchema = z
  .strictObject({
    source: z
      .enum(VENUE_SOURCES)
      .describe(
        "live: read now (report at the head); recorded: the reading a signed statement used at this block or nearest before it; none: no venue equity counts",
      ),
    reason: z.string().nullable().describe("why no venue equity counts (source none); null otherwise"),
    venueTime: isoTimeSchema
      .nullable()
      .describe("the venue's own time of its answer; null when it gave none or there is no answer"),
    ageSeconds: z
      .int()
      .nonnegative()
      .nullable()
      .describe(
        "seconds between the venue's answer and this report's moment (now at the head, the block's time at a past block)",
      ),
    recordedAtBlock: z
      .int()
      .nullable()
      .describe("the block of the statement that recorded the reading (source recorded)"),
    statement: hash32Schema.nullable().describe("attestation_hash of that statement"),
    statementUrl: z.string().nullable().describe("where that statement is served"),
  })
  .describe("where the venue equity that reconciles the mirror came from");
export type VenueReadDoc = z.infer<typeof VenueReadSchema>;

/**
 * The basis of a report at a past block whose time is `blockTimestamp` (unix s), from the nearest
 * recorded reading at or before it (or null).
 */
export function recordedVenueBasis(reading: RecordedVenueReading | null, blockTimestamp: number): VenueBasis {
  if (!reading)
    return none("past block: no venue reading was recorded at or before it (the venue publishes current equity only)");
  const { state, reason, readAtMs, ...recorded } = reading;
  const ageSeconds = Math.max(0, blockTimestamp - Math.floor((state?.time ?? readAtMs) / 1000));
  if (!state)
    return {
      ...none(
        `past block: the statement at block ${reading.blockNumber} could not read the venue (${reason ?? "no reason given"})`,
      ),
      ageSeconds,
      recorded,
      receivedAtMs: readAtMs,
    };
  if (ageSeconds > RECORDED_VENUE_MAX_AGE_SECONDS) {
    return {
      ...none(
        `past block: the nearest recorded venue reading (block ${reading.blockNumber}) is ${ageSeconds} s older than this block, more than ${RECORDED_VENUE_MAX_AGE_SECONDS} s`,
      ),
      ageSeconds,
      recorded,
      receivedAtMs: readAtMs,
    };
  }
  return { source: "recorded", state, reason: null, ageSeconds, recorded, receivedAtMs: readAtMs };
}

export function none(reason: string): VenueBasis {
  return { source: "none", state: null, reason, ageSeconds: null, recorded: null, receivedAtMs: null };
}

export function venueReadDoc(b: VenueBasis): VenueReadDoc {
  const time = b.state?.time;
  return {
    source: b.source,
    reason: b.reason,
    venueTime: typeof time === "number" ? new Date(time).toISOString() : null,
    ageSeconds: b.ageSeconds,
    recordedAtBlock: b.recorded?.blockNumber ?? null,
    statement: (b.recorded?.statement as `0x${string}` | null | undefined) ?? null,
    statementUrl: b.recorded?.statementUrl ?? null,
  };
}

/** The command that reads the venue's equity for `user` (a reader runs it; the answer is live, not historical). */
export const venueReadCommand = (infoUrl: string, user: string) =>
  `curl -s -X POST ${infoUrl} -H 'content-type: application/json' -d '{"type":"clearinghouseState","user":"${user}"}'  # marginSummary.accountValue = live venue equity (USD)`;
