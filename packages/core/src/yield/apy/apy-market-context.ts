/**
 * marketContext (spec 2.4): peer synthetic-dollar yields as the operator configures them, with
 * why they do not compare with the modeled headline. Nothing here is measured: /api/honesty-index
 * measures peers on chain.
 */
import { z } from "zod";
import { isoTimeSchema } from "../../schema-primitives.js";

export const MarketPeerSchema = z.strictObject({
  key: z.string(),
  protocol: z.string(),
  asset: z.string(),
  chain: z.string(),
  apyPct: z.number().describe("the peer's APY in percent, as its source publishes it"),
  tvlUsd: z.number().nullable(),
  basis: z.string().describe("how the source measures it (realized trailing, by an aggregator)"),
  source: z.string(),
  sourceUrl: z.string(),
  firstPartyUrl: z.string().nullable(),
  measuredAt: z.string().nullable(),
});
export type MarketPeer = z.infer<typeof MarketPeerSchema>;

export const MarketContextSchema = z.strictObject({
  available: z.boolean().describe("true when the operator configures peers (KUSD_MARKET_PEERS)"),
  peers: z.array(MarketPeerSchema),
  comparison: z.strictObject({
    basisAsymmetry: z.string(),
    scaleAsymmetry: z.string(),
    kerneRealizedNote: z.string(),
    howToCheck: z.string(),
  }),
  headline: z
    .strictObject({ pct: z.number().nullable(), source: z.string().nullable(), sourceNote: z.string() })
    .describe("the first configured peer's figure"),
  sources: z.array(z.string()),
  asOf: isoTimeSchema,
  note: z.string(),
});
export type MarketContext = z.infer<typeof MarketContextSchema>;

export function buildMarketContext(peers: MarketPeer[], timestamp: string): MarketContext {
  const first = peers[0];
  return {
    available: peers.length > 0,
    peers,
    comparison: {
      basisAsymmetry:
        "peer yields are realized trailing figures measured by an aggregator; expectedAPY is modeled forward: compare realized with realized",
      scaleAsymmetry: "peers run books orders of magnitude larger; carry per dollar is not scale-free",
      kerneRealizedNote:
        "realized.annualized is this vault's own measured figure; /api/honesty-index measures peers the same way",
      howToCheck: "GET /api/honesty-index and compare realized APY over the same windows",
    },
    headline: first
      ? { pct: first.apyPct, source: first.source, sourceNote: "the first configured peer, as its source publishes it" }
      : { pct: null, source: null, sourceNote: "no peer source configured for this deployment" },
    sources: peers.map((p) => p.sourceUrl),
    asOf: timestamp,
    note: peers.length
      ? "peer figures are configured by the operator (KUSD_MARKET_PEERS) with their sources; they are not measured here"
      : "unavailable: no peer yields are configured (KUSD_MARKET_PEERS; /api/honesty-index measures peers on chain instead)",
  };
}
