/**
 * The I/O edge of the history series: the indexed rows up to `toBlock` (kept per block and
 * block hash: rows at a block never change, and a reorg changes the hash), then the pure
 * planner and builder. No chain read per point; the commands in verifyVia re-check the last one.
 */
import {
  buildHistory,
  type HistoryInterval,
  HistoryRangeError,
  type HistoryRows,
  type HistorySeries,
  isoTime,
  type KnownBlock,
  knownBlocks,
  PSM_KEYS,
  planPoints,
} from "@kusd/core";
import { PinnedReader, snapshotAddresses } from "../../packages/verify/src/index.js";
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

/** The commands that reproduce a point's supply, balances and PSM kUSD at its block. */
function verifyCommands(ctx: ReportContext, blockNumber: bigint): string[] {
  const n = ctx.network;
  const r = new PinnedReader(ctx.base, blockNumber, n.reporting.publicRpc.base);
  const bal = (token: `0x${string}`, holder: `0x${string}`) => ({
    to: token,
    signature: "balanceOf(address)(uint256)",
    args: [holder] as const,
  });
  const line = (spec: Parameters<PinnedReader["command"]>[0], field: string) => r.recheckCommand(spec, field);
  return [
    line({ to: n.kUSD.address, signature: "totalSupply()(uint256)" }, "kusdSupplyWei"),
    ...PSM_KEYS.map((k) => line(bal(n.usdc.address, n.psms[k].address), `psmUSDC.${k} (6 decimals)`)),
    ...PSM_KEYS.map((k) =>
      line(bal(n.kUSD.address, n.psms[k].address), `kUSD held by ${k} (kusdOutstandingWei = supply − these)`),
    ),
    line(
      { to: n.stakingVaults.skUSD.address, signature: "convertToAssets(uint256)(uint256)", args: [10n ** 24n] },
      "skusdSharePrice (at its own block)",
    ),
  ];
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
  const points = buildHistory(plan, rows);
  const last = points.at(-1);
  return {
    interval: q.interval,
    fromBlock: Number(fromBlock),
    toBlock: Number(to.blockNumber),
    step: q.interval === "BLOCKS" ? Number(q.step) : null,
    indexedHead: { blockNumber: Number(to.head.blockNumber), timestamp: isoTime(to.head.timestamp) },
    points,
    source:
      "Indexed rows only: kUSD mints and burns (kusd_supply_event), USDC and kUSD transfers into and out of each PSM (registry_transfer, indexed from the protocol's first contract), skUSD's sampled convertToAssets (share_price) and PSM redemptions (psm_swap). Running sums give the state at each point's block.",
    verifyVia: last ? verifyCommands(ctx, BigInt(last.blockNumber)) : [],
  };
}
