/**
 * The I/O edge of the history series: the indexed rows up to `toBlock` (kept per block and
 * block hash: rows at a block never change, and a reorg changes the hash), then the pure
 * planner and builder. No chain read per point; the commands in verifyVia re-check the last one.
 */
import {
  basePins,
  buildHistorySeries,
  type HistoryInterval,
  HistoryRangeError,
  type HistoryRows,
  type HistorySeries,
  type KnownBlock,
  knownBlocks,
  planPoints,
} from "@kusd/core";
import { historyVerifyCommands, PinnedReader, snapshotAddresses } from "../../packages/verify/src/index.js";
import {
  blockTimestamp,
  type ReportContext,
  reportBlockHash,
  reportBlockHeader,
  resolveReportBlock,
} from "../context.js";
import { badRequest } from "../http/errors.js";
import { historyRowsUpTo } from "../io/history-reads.js";

export type HistoryQuery = { interval: HistoryInterval; fromBlock?: bigint; toBlock?: bigint; step?: bigint };

/** The indexed rows behind the series up to `toBlock`, kept per block and block hash. */
export async function historyRowsAt(ctx: ReportContext, toBlock: bigint): Promise<HistoryRows> {
  const n = ctx.network;
  const read = () =>
    historyRowsUpTo(
      ctx.db,
      { usdc: n.usdc.address, kUSD: n.kUSD.address, psms: snapshotAddresses(ctx.network).psms },
      toBlock,
    );
  const hash = await reportBlockHash(ctx, toBlock);
  return hash ? ctx.caches.historyRows(`${toBlock}:${hash}`, read) : read();
}

/**
 * A block's time: from the indexed rows when they name it, else the block's header as reports
 * share it (one read per block and `headFreshMs`), read again only when that failed (a failure is a 503).
 */
async function blockTime(ctx: ReportContext, blockNumber: bigint, known: KnownBlock[]): Promise<number> {
  const indexed = known.find((k) => k.blockNumber === blockNumber);
  if (indexed) return indexed.timestamp;
  return blockTimestamp(ctx, blockNumber, await reportBlockHeader(ctx, blockNumber));
}

export async function loadHistory(ctx: ReportContext, q: HistoryQuery): Promise<HistorySeries> {
  const first = BigInt(ctx.network.kUSD.startBlock);
  const to = await resolveReportBlock(ctx, q.toBlock === undefined ? undefined : String(q.toBlock));
  const fromBlock = q.fromBlock ?? first;
  if (fromBlock < first)
    throw badRequest("block_before_deployment", `fromBlock ${fromBlock} is before kUSD was deployed (block ${first})`, {
      fromBlock: Number(fromBlock),
      firstBlock: Number(first),
    });
  const rows = await historyRowsAt(ctx, to.blockNumber);
  const known = knownBlocks(rows);
  // DAY and WEEK run to toBlock's period: the head's time is in its checkpoint, an older block's is read once.
  const toTime =
    q.interval === "BLOCKS" ? null : to.atHead ? to.head.timestamp : await blockTime(ctx, to.blockNumber, known);
  let plan: ReturnType<typeof planPoints>;
  try {
    plan = planPoints(q.interval, { fromBlock, toBlock: to.blockNumber, step: q.step ?? null, toTime }, known);
  } catch (e) {
    if (e instanceof HistoryRangeError) throw badRequest(e.code, e.message, { interval: q.interval });
    throw e;
  }
  const n = ctx.network;
  const header = await reportBlockHeader(ctx, to.blockNumber);
  return buildHistorySeries({
    interval: q.interval,
    fromBlock,
    toBlock: to.blockNumber,
    step: q.step ?? null,
    indexedHead: to.head,
    plan,
    rows,
    verifyVia: (block) => historyVerifyCommands(new PinnedReader(ctx.base, block, n.reporting.publicRpc.base), n),
    pins: basePins({
      report: "history",
      network: { chainId: n.chains.base.id, documentSha256: n.documentSha256 },
      block: header && { number: Number(to.blockNumber), hash: header.hash, timestamp: header.timestamp },
    }),
  });
}
