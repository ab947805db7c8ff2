/** `history`: the series of GET /api/history, computed by the same function. */
import { HISTORY_INTERVALS, type HistoryPoint, type HistorySeries } from "@kusd/core";
import { loadHistory } from "../history/history-service.js";
import { builder } from "./builder.js";
import { asGraphQL } from "./reports.js";

const HistoryInterval = builder.enumType("HistoryInterval", { values: HISTORY_INTERVALS });

const PointRef = builder.objectRef<HistoryPoint>("HistoryPoint").implement({
  description: "The state at blockNumber, from indexed rows: a direct read at that block gives the same figures.",
  fields: (t) => ({
    blockNumber: t.exposeInt("blockNumber", {
      description: "The block whose state this is; for a carried point, the previous point's block (where it was read)",
    }),
    carried: t.exposeBoolean("carried", {
      description:
        "true when the DAY or WEEK period holds no indexed block: the previous point's figures, carried forward",
    }),
    timestamp: t.exposeString("timestamp", {
      nullable: true,
      description: "null when no event is indexed at that block",
    }),
    periodStart: t.string({ nullable: true, resolve: (p) => p.period?.start ?? null }),
    periodEnd: t.string({ nullable: true, description: "exclusive", resolve: (p) => p.period?.end ?? null }),
    kusdSupply: t.field({ type: "BigInt", description: "18 decimals", resolve: (p) => p.kusdSupplyWei }),
    kusdOutstanding: t.field({
      type: "BigInt",
      description: "18 decimals: supply minus the kUSD the PSMs hold",
      resolve: (p) => p.kusdOutstandingWei,
    }),
    psmUsdcMint: t.float({ description: "USDC in whole units (not raw)", resolve: (p) => p.psmUSDC.psmMint }),
    psmUsdcRetiredMint: t.float({
      description: "USDC in whole units (not raw)",
      resolve: (p) => p.psmUSDC.psmRetiredMint,
    }),
    psmUsdcRedeemReserve: t.float({
      description: "USDC in whole units (not raw)",
      resolve: (p) => p.psmUSDC.psmRedeemReserve,
    }),
    psmUsdc: t.float({ description: "USDC in whole units, the three PSMs together", resolve: (p) => p.psmUSDC.total }),
    backingRatio: t.exposeFloat("backingRatio", { nullable: true, description: "psmUsdc / kusdOutstanding" }),
    skusdSharePrice: t.float({
      nullable: true,
      description: "kUSD per skUSD share at skusdSharePriceBlock",
      resolve: (p) => p.skusdSharePrice?.kusdPerShare ?? null,
    }),
    skusdSharePriceBlock: t.int({ nullable: true, resolve: (p) => p.skusdSharePrice?.blockNumber ?? null }),
    redemptions: t.int({
      description: "PSM redemptions in the point's period or step (0 on a carried point)",
      resolve: (p) => p.redemptions.count,
    }),
    redemptionsKusd: t.float({ description: "kUSD in whole units (not raw)", resolve: (p) => p.redemptions.kusd }),
    redemptionsUsdc: t.float({ description: "USDC in whole units (not raw)", resolve: (p) => p.redemptions.usdc }),
  }),
});

const SeriesRef = builder.objectRef<HistorySeries>("HistorySeries").implement({
  fields: (t) => ({
    interval: t.exposeString("interval"),
    fromBlock: t.exposeInt("fromBlock"),
    toBlock: t.exposeInt("toBlock"),
    step: t.exposeInt("step", { nullable: true }),
    points: t.field({ type: [PointRef], resolve: (s) => s.points }),
    verifyVia: t.exposeStringList("verifyVia"),
  }),
});

builder.queryField("history", (t) =>
  t.field({
    type: SeriesRef,
    description:
      "GET /api/history: supply, outstanding, PSM USDC, backing ratio, share price and redemptions per DAY, WEEK or every `step` BLOCKS. DAY and WEEK are dense (one point per UTC period to toBlock's; periods without an indexed block are carried).",
    args: {
      interval: t.arg({ type: HistoryInterval, defaultValue: "DAY" }),
      fromBlock: t.arg({ type: "BigInt" }),
      toBlock: t.arg({ type: "BigInt" }),
      step: t.arg({ type: "BigInt" }),
    },
    resolve: (_r, a, { reports }) =>
      asGraphQL(() =>
        loadHistory(reports, {
          interval: a.interval ?? "DAY",
          fromBlock: a.fromBlock ?? undefined,
          toBlock: a.toBlock ?? undefined,
          step: a.step ?? undefined,
        }),
      ),
  }),
);
