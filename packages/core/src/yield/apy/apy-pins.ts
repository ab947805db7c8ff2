/**
 * What pins /api/apy's inputs (`pins`): its block and network, the venue's requests (the funding
 * window's exact start and end in ms, the current answers as used), the LST observations behind the
 * 7-day staking average (each LST's updates in the 8 days before the report), and the latest yield
 * distribution into skUSD. A reader re-reads each from their own RPC and venue (kusd-verify --report).
 */
import { z } from "zod";
import { basePins, pinsSchema } from "../../reports/pins.js";
import { hash32Schema } from "../../schema-primitives.js";
import type { ApyInputs } from "./apy-inputs.js";

export const ApyPinsSchema = pinsSchema({
  lstObservations: z
    .array(
      z.strictObject({
        symbol: z.string(),
        blockNumber: z.int().describe("the block the rate was observed at"),
        timestamp: z.int().describe("the rate's time (the block's, or the feed's updatedAt), unix seconds"),
      }),
    )
    .describe("every LST rate observation in the 8 days before the report, oldest first"),
  lastYield: z
    .strictObject({ blockNumber: z.int(), logIndex: z.int(), txHash: hash32Schema })
    .nullable()
    .describe("the latest YieldDistributed into skUSD at or before the block (null: none, or no escrow)"),
});
export type ApyPins = z.infer<typeof ApyPinsSchema>;

export function apyPins(i: ApyInputs): ApyPins {
  const y = i.escrow?.lastYield ?? null;
  return {
    ...basePins({
      report: "apy",
      network: { chainId: i.pinned.chainId, documentSha256: i.pinned.documentSha256 },
      block: i.pinned.block,
      venue: { url: i.venue.url, account: i.venue.account, requests: i.venue.requests, failed: i.venue.error },
    }),
    lstObservations: i.lstRates.map((r) => ({
      symbol: r.symbol,
      blockNumber: Number(r.blockNumber),
      timestamp: Number(r.timestamp),
    })),
    lastYield: y ? { blockNumber: Number(y.blockNumber), logIndex: y.logIndex, txHash: y.txHash } : null,
  };
}
