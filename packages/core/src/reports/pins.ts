/**
 * What pins a report's inputs (`pins`, published beside the spec's fields of every report): the
 * network document it was built with, the chain block every chain read is pinned to, and each
 * venue request exactly as sent, with when the venue answered. A reader who re-reads these from
 * their own RPC and venue and runs the same pure assembler gets the same report, figure by figure
 * (kusd-verify --report); what cannot be read again (the venue's current state) is published as
 * it was used, so the arithmetic on it can still be checked.
 */
import type { Hex } from "viem";
import { z } from "zod";
import { addressSchema, hash32Schema } from "../schema-primitives.js";

/** Every report the service publishes, by the name `pins.report` gives it. */
export const REPORT_KINDS = [
  "por",
  "apy",
  "hedge-ledger",
  "stats",
  "psm-status",
  "risk-status",
  "lending-occupancy",
  "honesty-index",
  "history",
  "redemption-plan",
  "violations",
] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

export const BlockPinSchema = z
  .strictObject({
    number: z.int().nonnegative(),
    hash: hash32Schema,
    timestamp: z.int().describe("the block's time, unix seconds"),
  })
  .describe("the block every chain read of the report is pinned to (read it again by its hash, EIP-1898)");
export type BlockPin = z.infer<typeof BlockPinSchema>;

export const VenueRequestPinSchema = z
  .strictObject({
    request: z
      .record(z.string(), z.unknown())
      .describe("the request body as sent to POST /info (a time range's first page: startTime and endTime in ms)"),
    history: z
      .boolean()
      .describe(
        "true: the venue serves this range again later (funding history, funding payments, fills it still keeps); false: its current state only",
      ),
    pages: z.int().nonnegative().describe("requests the answer took (time ranges are paged)"),
    records: z.int().nonnegative().nullable().describe("records the answer held (null for a current-state answer)"),
    venueTimeMs: z.int().nullable().describe("the venue's own time of its answer, where it gives one (unix ms)"),
    receivedAtMs: z.int().describe("this service's clock when the (last page of the) answer arrived (unix ms)"),
    answer: z
      .unknown()
      .optional()
      .describe("a current-state answer as the report used it (what no one can read again)"),
  })
  .describe("one venue request behind the report");
export type VenueRequestPin = z.infer<typeof VenueRequestPinSchema>;

export const VenuePinSchema = z
  .strictObject({
    url: z.string().nullable().describe("the venue's POST /info endpoint (null: none configured)"),
    account: addressSchema.describe("the hedge account the requests name"),
    requests: z.array(VenueRequestPinSchema),
    failed: z
      .string()
      .nullable()
      .describe("why the venue could not be read (its figures are then null, never guessed); null when it answered"),
  })
  .describe("the venue reads behind the report");
export type VenuePin = z.infer<typeof VenuePinSchema>;

export const NetworkPinSchema = z
  .strictObject({
    chainId: z.int(),
    documentSha256: hash32Schema.describe(
      "SHA-256 of the network document's canonical JSON (GET /api/network): the contracts and accounts every figure reads",
    ),
  })
  .describe("the deployment the report describes");

/** The pins every report carries; a report with more inputs extends it (`pinsSchema({...})`). */
export const PinsShape = {
  report: z.enum(REPORT_KINDS).describe("which report this is"),
  network: NetworkPinSchema,
  block: BlockPinSchema.nullable().describe("null only when the report reads no chain state"),
  venue: VenuePinSchema.nullable().describe("null when the report reads no venue"),
};

/** A report's pins: the common ones and its own (LST observation blocks, share price blocks, …). */
export const pinsSchema = <S extends z.ZodRawShape>(extra: S) =>
  z
    .strictObject({ ...PinsShape, ...extra })
    .describe(
      "what pins the report's inputs: re-read them from your own RPC and venue and the same assembler gives the same figures (kusd-verify --report)",
    );
export const PinsSchema = pinsSchema({});
export type Pins = z.infer<typeof PinsSchema>;

/** The pins common to every report, from what the service read. */
export function basePins(o: {
  report: ReportKind;
  network: { chainId: number; documentSha256: Hex };
  block: BlockPin | null;
  venue?: VenuePin | null;
}): Pins {
  return { report: o.report, network: o.network, block: o.block, venue: o.venue ?? null };
}
