/** market: the ETH / USD price every ETH figure of the report is converted at. */
import { z } from "zod";
import { isoTimeSchema, verifyViaSchema } from "../../schema-primitives.js";
import { isoTime } from "../units.js";
import { Amount } from "./json-types.js";
import type { ChainSnapshot } from "./snapshot.js";
import { cmd, cmds } from "./values.js";

export const MarketSchema = z.strictObject({
  ethPriceUSD: Amount.describe(
    "latestRoundData() answer of the ETH / USD feed at the report's block; null when no feed is configured or the read failed",
  ),
  source: z.string(),
  updatedAt: isoTimeSchema.nullable().describe("the feed round's updatedAt"),
  verifyVia: verifyViaSchema,
});
export type Market = z.infer<typeof MarketSchema>;

export function buildMarket(s: ChainSnapshot, price: number | null): Market {
  return {
    ethPriceUSD: price,
    source: s.ethUsd
      ? `ETH / USD feed ${s.ethUsd.address} latestRoundData() at the report's block`
      : "no ETH / USD feed configured",
    updatedAt: s.ethUsd?.updatedAt ? isoTime(s.ethUsd.updatedAt) : null,
    verifyVia: cmds(s.ethUsd ? cmd(s.ethUsd.answer, "market.ethPriceUSD") : null),
  };
}
