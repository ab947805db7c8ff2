/**
 * The chain reads behind /api/honesty-index, made the same way by the service and a reader: where
 * each window starts (the last block at or before the head's time minus the window, found from
 * the blocks' own timestamps), and every vault's convertToAssets(1 share) at the head and at each
 * window's start. A failed read is null (unknown), listed; a vault with no code yet is null too.
 */
import {
  type BlockPin,
  BOARD_WINDOWS_DAYS,
  type BoardChainReads,
  type BoardVault,
  type BoardVaultReads,
  type BoardWindow,
  DAY,
} from "@kusd/core";
import type { PublicClient } from "viem";
import { PinnedReader, tolerantReads } from "./pinned-reader.js";

/** A block's header by number. */
export type HeaderAt = (n: number) => Promise<BlockPin>;

/** Headers by number from `client`, each read once however many searches ask for it. */
export function headersOf(client: PublicClient): HeaderAt {
  const seen = new Map<number, Promise<BlockPin>>();
  return (n) => {
    let header = seen.get(n);
    if (!header) {
      header = client
        .getBlock({ blockNumber: BigInt(n) })
        .then((b) => ({ number: Number(b.number), hash: b.hash, timestamp: Number(b.timestamp) }));
      header.catch(() => seen.delete(n));
      seen.set(n, header);
    }
    return header;
  };
}

/**
 * The last block whose time is at or before `target`, and the block after it (the first past it):
 * their timestamps bracket `target`, which is what shows the choice right. From a `hint` the
 * search gallops outwards from it (a right hint costs its header and the next), else it bisects
 * the chain up to `head`. Block times never decrease, so either way finds the same block.
 */
export async function lastBlockAtOrBefore(
  header: HeaderAt,
  target: number,
  head: BlockPin,
  hint?: number,
): Promise<{ block: BlockPin | null; next: BlockPin | null }> {
  if (target >= head.timestamp) return { block: head, next: null };
  // below: a block at or before target (null: none known yet, below block 0); above: one past it.
  let below: BlockPin | null = null;
  let above = head;
  if (hint !== undefined && Number.isSafeInteger(hint) && hint >= 0 && hint < head.number) {
    const h = await header(hint);
    if (h.timestamp <= target) {
      below = h;
      for (let step = 1; below.number + step < above.number; step *= 2) {
        const b = await header(below.number + step);
        if (b.timestamp > target) {
          above = b;
          break;
        }
        below = b;
      }
    } else {
      above = h;
      for (let step = 1; above.number - step >= 0; step *= 2) {
        const b = await header(above.number - step);
        if (b.timestamp <= target) {
          below = b;
          break;
        }
        above = b;
      }
    }
  }
  while (above.number - (below?.number ?? -1) > 1) {
    const mid = Math.floor(((below?.number ?? -1) + above.number) / 2);
    const b = await header(mid);
    if (b.timestamp <= target) below = b;
    else above = b;
  }
  return { block: below, next: above };
}

/**
 * Each window's start on a chain with head `head`, in BOARD_WINDOWS_DAYS order. `hints` (by days)
 * are where a reader expects them (the report's pins); without one, a window is looked for where
 * the chain's block rate puts it, measured back to the previous window's start (the first: to
 * block 0): on a chain of even block times (Base: one every 2 s) that is the block itself.
 */
export async function boardWindows(
  header: HeaderAt,
  head: BlockPin,
  hints: ReadonlyMap<number, number> = new Map(),
): Promise<BoardWindow[]> {
  const windows: BoardWindow[] = [];
  for (const days of BOARD_WINDOWS_DAYS) {
    const target = head.timestamp - days * DAY;
    let hint = hints.get(days);
    if (hint === undefined) {
      const from = windows.at(-1)?.block ?? (head.number > 0 ? await header(0) : null);
      if (from && head.timestamp > from.timestamp)
        hint = Math.round(head.number - ((head.number - from.number) / (head.timestamp - from.timestamp)) * days * DAY);
    }
    windows.push({ days, target, ...(await lastBlockAtOrBefore(header, target, head, hint)) });
  }
  return windows;
}

/** Where a vault's share prices are read: the chain's client at a block (a reader's is pinned to its hash) and the RPC its commands name. */
export type BoardChainSource = { clientAt: (block: BlockPin) => PublicClient; commandRpcUrl: string };

/** convertToAssets(one whole share) of each vault at its chain's head and each window's start. */
export async function readBoardVaults(
  vaults: readonly BoardVault[],
  chains: Record<BoardVault["chain"], (BoardChainReads & BoardChainSource) | null>,
): Promise<{ reads: BoardVaultReads[]; failedReads: string[] }> {
  const failedReads: string[] = [];
  const at = async (v: BoardVault, source: BoardChainSource, block: BlockPin | null) => {
    if (!block) return null;
    const r = tolerantReads(new PinnedReader(source.clientAt(block), BigInt(block.number), source.commandRpcUrl));
    const read = await r.read<bigint>(
      { to: v.address, signature: "convertToAssets(uint256)(uint256)", args: [10n ** BigInt(v.shareDecimals)] },
      v.assetDecimals,
    );
    failedReads.push(...r.failedReads.map((f) => `${v.name} at block ${block.number}: ${f}`));
    return read;
  };
  const reads = await Promise.all(
    vaults.map(async (v): Promise<BoardVaultReads> => {
      const chain = chains[v.chain];
      if (!chain) return { end: null, starts: BOARD_WINDOWS_DAYS.map(() => null) };
      const [end, ...starts] = await Promise.all([
        at(v, chain, chain.head),
        ...BOARD_WINDOWS_DAYS.map((days) => at(v, chain, chain.windows.find((w) => w.days === days)?.block ?? null)),
      ]);
      return { end: end ?? null, starts };
    }),
  );
  return { reads, failedReads };
}
