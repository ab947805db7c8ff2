/**
 * GET /api/history re-derived from the reader's own RPC. The points are planned on the blocks the
 * indexer holds rows at, rebuilt from the logs (history-blocks.ts, history-plan.ts); each point's
 * supply and PSM balances are read at its block (one aggregate3 a block), skUSD's share price at
 * its sample's block, and the redemptions come from the PSMs' Swap logs. The reads enter the
 * service's own assembler (buildHistorySeries) as the changes between consecutive points, so its
 * running sums give each point exactly what the chain holds at its block.
 */
import {
  buildHistorySeries,
  type HistoryRows,
  type HistorySeries,
  HistorySeriesSchema,
  PSM_KEYS,
  type PsmBalanceChange,
} from "@kusd/core";
import { createPublicClient, type PublicClient } from "viem";
import {
  type HistoryPointReads,
  historyVerifyCommands,
  readHistoryPoint,
  readSharePriceSample,
} from "../read-plan/history-reads.js";
import { batchTarget, PinnedReader } from "../read-plan/pinned-reader.js";
import { classifyFigures } from "../rederive/classify.js";
import { HeaderTimes } from "../rederive/header-times.js";
import { historyBlocks, sampleAtOrBefore } from "../rederive/history-blocks.js";
import { plannedPoints } from "../rederive/history-plan.js";
import { RederivationError } from "../rederive/rederive-statement.js";
import { isPin, openPinnedChain, parseReport, type ReportVerifier } from "./report-verifier.js";

/** The service's own head when it answered: context, not a figure of the series. */
const SERVICE_FIELDS = /^indexedHead\./;

const ZERO: HistoryPointReads = {
  supply: 0n,
  usdc: { psmMint: 0n, psmRetiredMint: 0n, psmRedeemReserve: 0n },
  kusd: { psmMint: 0n, psmRetiredMint: 0n, psmRedeemReserve: 0n },
};

/**
 * The reads at each point's block as the changes since the previous point's: the assembler sums
 * them back, point by point. Its rows' times are never read by it (only a share-price sample's).
 */
function changesBetween(points: { blockNumber: bigint; reads: HistoryPointReads }[]) {
  const supply: HistoryRows["supply"] = [];
  const psmBalances: PsmBalanceChange[] = [];
  let before = ZERO;
  for (const { blockNumber, reads } of points) {
    supply.push({ blockNumber, timestamp: 0, delta: reads.supply - before.supply });
    for (const psmKey of PSM_KEYS) {
      psmBalances.push({
        blockNumber,
        timestamp: 0,
        psmKey,
        token: "USDC",
        delta: reads.usdc[psmKey] - before.usdc[psmKey],
      });
      psmBalances.push({
        blockNumber,
        timestamp: 0,
        psmKey,
        token: "kUSD",
        delta: reads.kusd[psmKey] - before.kusd[psmKey],
      });
    }
    before = reads;
  }
  return { supply, psmBalances };
}

export const historyVerifier: ReportVerifier = {
  report: "history",
  path: "/api/history",
  async rederive(input, s) {
    const published: HistorySeries = parseReport(HistorySeriesSchema, input, "/api/history");
    const pins = published.pins;
    const { transport, client, block } = await openPinnedChain(pins, s);
    if (published.toBlock !== Number(block.number))
      throw new RederivationError(
        "report_unreadable",
        `the series runs to block ${published.toBlock} but its pins name block ${block.number}`,
      );
    const n = s.network;
    const rpcUrl = n.reporting.publicRpc.base;
    const plain = createPublicClient({ transport }) as PublicClient;
    const blocks = await historyBlocks(plain, n, block.number);
    const times = new HeaderTimes(plain, [[block.number, block.timestamp]]);
    const step = published.step === null ? null : BigInt(published.step);
    const q = {
      interval: published.interval,
      fromBlock: BigInt(published.fromBlock),
      toBlock: block.number,
      step,
      toTime: block.timestamp,
    };
    const plan = await plannedPoints(times, q, blocks.known);
    const pointBlocks = [...new Set(plan.map((p) => p.blockNumber))];
    const sampleBlocks = [
      ...new Set(pointBlocks.map((b) => sampleAtOrBefore(blocks.samples, b)).filter((b) => b !== null)),
    ];
    const at = (b: bigint) => new PinnedReader(client, b, rpcUrl);
    // Multicall3's code at the earliest block read answers for every later one (code-presence.ts).
    const earliestRead = [...pointBlocks, ...sampleBlocks].reduce((a, b) => (b < a ? b : a), block.number);
    await batchTarget(client, earliestRead);
    const [points, samples] = await Promise.all([
      Promise.all(pointBlocks.map(async (b) => ({ blockNumber: b, reads: await readHistoryPoint(at(b), n) }))),
      Promise.all(
        sampleBlocks.map(async (b) => {
          const assetsPerShare = await readSharePriceSample(at(b), n);
          return assetsPerShare === null ? null : { blockNumber: b, timestamp: await times.at(b), assetsPerShare };
        }),
      ),
    ]);
    const rows: HistoryRows = {
      ...changesBetween(points),
      sharePrices: samples.filter((x) => x !== null),
      redemptions: blocks.redemptions.map((r) => ({ ...r, timestamp: 0 })),
    };
    const build = (r: HistoryRows) =>
      buildHistorySeries({
        ...q,
        indexedHead: {
          blockNumber: BigInt(published.indexedHead.blockNumber),
          timestamp: Date.parse(published.indexedHead.timestamp) / 1000,
        },
        plan,
        rows: r,
        verifyVia: (b) => historyVerifyCommands(at(b), n),
        pins,
      });
    const figures = classifyFigures({
      published,
      inputs: rows,
      build,
      resting: [],
      skip: (f) => isPin(f) || SERVICE_FIELDS.test(f),
    });
    const redemptions = blocks.redemptions.reduce((a, r) => a + r.count, 0);
    return {
      report: "history",
      unproven: { figures: "all", source: "every point's block other than the report's, and the logs that find them" },
      block,
      rows: figures,
      failedReads: [],
      checks: [
        {
          name: "history",
          ok: true,
          detail: `${plan.length} points on ${blocks.known.length} indexed blocks rebuilt from the logs (${blocks.calls.logs} eth_getLogs, ${redemptions} redemptions); ${pointBlocks.length} point blocks and ${sampleBlocks.length} share-price samples read (one aggregate3 each), ${times.calls} headers, ${blocks.calls.code} code checks`,
        },
      ],
    };
  },
};
