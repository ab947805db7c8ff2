/**
 * What pins /api/risk-status's inputs (`pins`): its block and network; the venue's
 * clearinghouseState answer as the off-chain triggers used it (the venue serves its current state
 * only, so a reader checks the arithmetic on it as recorded); and what no chain or venue can give
 * again: whether the block was the indexed head (off-chain triggers are judged at the head only),
 * the service's clock when it judged them, and the signed time of its latest published statement.
 */
import { z } from "zod";
import { basePins, type Pins, pinsSchema, type VenueRequestPin } from "../reports/pins.js";
import type { OffChainInputs } from "./off-chain-triggers.js";

export const RiskPinsSchema = pinsSchema({
  offChain: z
    .strictObject({
      atHead: z.boolean().describe("the block was the indexed head: the off-chain triggers are judged (else null)"),
      now: z.int().describe("the service's clock when it judged the off-chain triggers, unix seconds"),
      statementSignedAt: z
        .int()
        .nullable()
        .describe("the signed time of the latest statement the service published (null: none), unix seconds"),
    })
    .describe("the off-chain triggers' inputs that are not the venue's answer"),
});
export type RiskPins = z.infer<typeof RiskPinsSchema>;

/** The venue's answer as the triggers used it: the pinned clearinghouseState request, when there was an answer. */
function venueRequests(i: OffChainInputs, receivedAtMs: number | null): VenueRequestPin[] {
  if (!i.venue || receivedAtMs === null) return [];
  return [
    {
      request: { type: "clearinghouseState", user: i.venueAccount },
      history: false,
      pages: 1,
      records: null,
      venueTimeMs: i.venue.timeMs,
      receivedAtMs,
      answer: { equityUsd: i.venue.equityUsd },
    },
  ];
}

export function riskPins(o: {
  base: Pick<Pins, "network" | "block">;
  venueUrl: string | null;
  offChain: OffChainInputs;
  /** When the venue's answer arrived (unix ms; null: no answer). */
  receivedAtMs: number | null;
}): RiskPins {
  const i = o.offChain;
  return {
    ...basePins({
      report: "risk-status",
      network: o.base.network,
      block: o.base.block,
      venue: {
        url: o.venueUrl,
        account: i.venueAccount as `0x${string}`,
        requests: venueRequests(i, o.receivedAtMs),
        failed: i.venue ? null : (i.venueReason ?? "not read"),
      },
    }),
    offChain: { atHead: i.atHead, now: i.now, statementSignedAt: i.statementSignedAt },
  };
}

/** The off-chain triggers' inputs as the pins record them. */
export function offChainInputsOf(pins: RiskPins): OffChainInputs {
  const v = pins.venue;
  const answer = v?.requests.find((r) => r.request.type === "clearinghouseState");
  const equityUsd = (answer?.answer as { equityUsd?: unknown } | undefined)?.equityUsd;
  return {
    atHead: pins.offChain.atHead,
    venueAccount: v?.account ?? "",
    venue: answer && typeof equityUsd === "number" ? { equityUsd, timeMs: answer.venueTimeMs } : null,
    venueReason: answer ? null : (v?.failed ?? "not read"),
    statementSignedAt: pins.offChain.statementSignedAt,
    now: pins.offChain.now,
  };
}
