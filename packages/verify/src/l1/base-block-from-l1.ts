/**
 * A Base block's hash proven from Ethereum: the dispute games whose range covers the block are
 * proven from L1 state (./prove-games.ts), the output root of the first intermediate root's block
 * at or after it is recomputed from the Base RPC's header and the L2ToL1MessagePasser's proven
 * storage root (`outputRootV0`), and the parent hashes are walked back from that block to the one
 * asked for. A Base RPC that serves another chain (a fork with its own consistent headers and
 * proofs) meets a root it cannot produce. A block newer than every posted root is pending, never
 * proven.
 */
import { L2_TO_L1_MESSAGE_PASSER, outputRootV0 } from "@kusd/core";
import { type Address, type Hex, numberToHex, type PublicClient } from "viem";
import { headerHash, type RpcHeader } from "../proofs/header.js";
import { proveAccount } from "../proofs/merkle-proof.js";
import { coveringRoot, gameStanding, type ProvenGame, STANDING_RANK, type Standing } from "./game-standing.js";
import {
  type GameEntry,
  hintFirstIndexAtOrAfter,
  type ProofSystem,
  provenGame,
  provenGameCount,
  provenGameEntry,
} from "./prove-games.js";
import { type L1Block, L1ReadError, ProvenL1, trustedL1Header } from "./proven-l1.js";

/** A game as the verdict shows it. */
export type GameSummary = {
  address: Address;
  index: number;
  /** The Base blocks its roots cover: after `from`, up to `to`. */
  range: { from: number; to: number };
  standing: Standing["kind"];
  detail: string;
  /** When it becomes final (unix seconds), for a game not final yet. */
  finalAt?: number;
};

export type L1Anchoring = {
  status: "proven" | "pending" | "failed";
  detail: string;
  /** The Ethereum block everything rests on. */
  l1: { number: number; hash: Hex; timestamp: number };
  /** With "proven": the Base block's hash, as the posted root and the parent hashes give it. */
  blockHash: Hex | null;
  /** The game rested on ("proven"), and every other game that covers the block, with why it was not. */
  game: (GameSummary & { rootIndex: number; rootBlock: number; root: Hex }) | null;
  games: GameSummary[];
  /** Base headers walked from the root's block back to the block. */
  headersWalked: number;
  /** With "pending": the Base block of the next root that would cover the block, and about when it exists on Base. */
  next?: { block: number; baseTimeAbout: number | null };
  /** eth_getProof calls made to the L1 RPC. */
  l1ProofCalls: number;
};

export type BaseBlockFromL1Options = {
  /** The reader's Ethereum RPC. */
  l1: PublicClient;
  /** The Ethereum block hash the reader trusts (null: the L1 RPC's latest block). */
  l1BlockHash: Hex | null;
  /** The Base RPC whose headers are checked against the posted roots. */
  base: Pick<PublicClient, "request">;
  block: bigint;
  system: ProofSystem;
};

/** How many games around the found index are proven (duplicates and late games of the same range). */
const AROUND = { before: 4, after: 12 };
/** How many of the newest games are proven to say a block is pending. */
const NEWEST = 8;

const summary = (g: ProvenGame): GameSummary => {
  const s = gameStanding(g);
  return {
    address: g.address,
    index: g.index,
    range: { from: Number(g.startingBlock), to: Number(g.l2SequenceNumber) },
    standing: s.kind,
    detail: s.detail,
    ...("finalAt" in s && { finalAt: Number(s.finalAt) }),
  };
};

async function baseHeader(base: BaseBlockFromL1Options["base"], n: bigint): Promise<RpcHeader> {
  const h = (await base.request({
    method: "eth_getBlockByNumber",
    params: [numberToHex(n), false],
  } as never)) as RpcHeader | null;
  if (!h) throw new L1ReadError(`the Base RPC has no block ${n}`);
  return { ...h, hash: headerHash(h) };
}

/** The output root of Base block `n` as the Base RPC's header and proof make it. */
async function recomputedRoot(base: BaseBlockFromL1Options["base"], n: bigint) {
  const header = await baseHeader(base, n);
  const proof = (await base.request({
    method: "eth_getProof",
    params: [L2_TO_L1_MESSAGE_PASSER, [], numberToHex(n)],
  } as never)) as { accountProof: Hex[] };
  const passer = await proveAccount(header.stateRoot, L2_TO_L1_MESSAGE_PASSER, proof.accountProof);
  const root = outputRootV0({
    stateRoot: header.stateRoot,
    messagePasserStorageRoot: passer.storageRoot,
    blockHash: header.hash,
  });
  return { header, root };
}

/** Walks parent hashes from `top` down to block `n`: the hash of `n` that `top`'s hash commits to. */
async function walkBack(
  base: BaseBlockFromL1Options["base"],
  top: RpcHeader,
  n: bigint,
): Promise<{ hash: Hex; walked: number }> {
  const topNumber = BigInt(top.number);
  const below = await Promise.all(
    Array.from({ length: Number(topNumber - n) }, (_, i) => baseHeader(base, topNumber - 1n - BigInt(i))),
  );
  let child = top;
  for (const h of below) {
    if (h.hash.toLowerCase() !== child.parentHash.toLowerCase())
      throw new L1ReadError(
        `Base block ${BigInt(child.number)}'s parent hash is ${child.parentHash}; the RPC's block ${BigInt(h.number)} hashes to ${h.hash}`,
      );
    child = h;
  }
  return { hash: child.hash, walked: below.length };
}

const l1Of = (b: L1Block) => ({ number: Number(b.number), hash: b.hash, timestamp: Number(b.timestamp) });

export async function proveBaseBlockFromL1(o: BaseBlockFromL1Options): Promise<L1Anchoring> {
  const header = await trustedL1Header(o.l1, o.l1BlockHash);
  const l1 = new ProvenL1(o.l1, header, await o.l1.getChainId());
  const at = l1Of(l1.block);
  const failed = (detail: string, games: GameSummary[] = []): L1Anchoring => ({
    status: "failed",
    detail,
    l1: at,
    blockHash: null,
    game: null,
    games,
    headersWalked: 0,
    l1ProofCalls: l1.counts.proofCalls,
  });
  try {
    const count = await provenGameCount(l1, o.system);
    if (count === 0)
      return failed(`the DisputeGameFactory at ${o.system.disputeGameFactory} lists no game at L1 block ${at.number}`);
    const first = await hintFirstIndexAtOrAfter(o.l1, o.system, l1.block.number, count, o.block);
    const from = Math.max(0, first - AROUND.before);
    const to = Math.min(count, first + AROUND.after);
    const newest = Array.from({ length: Math.min(NEWEST, count) }, (_, i) => count - 1 - i).filter(
      (i) => i < from || i >= to,
    );
    const indices = [...Array.from({ length: to - from }, (_, i) => from + i), ...newest];
    // Ranges first (cheap: the list entry and two arguments from the clone's code), then the
    // whole judgement of the games that cover the block only.
    const entries = (await Promise.all(indices.map((i) => provenGameEntry(l1, o.system, i)))).filter(
      (g): g is GameEntry => g !== null,
    );
    const covers = (g: GameEntry) => o.block > g.startingBlock && o.block <= g.l2SequenceNumber;
    const judged = (list: GameEntry[]) => Promise.all(list.map((g) => provenGame(l1, o.system, g)));
    const covering = await judged(entries.filter(covers));
    const usable = covering.filter((g) => gameStanding(g).kind !== "invalid");
    if (covering.length === 0) {
      const proven = await judged(entries.filter((g) => g.l2SequenceNumber < o.block));
      const standing = proven.filter((g) => gameStanding(g).kind !== "invalid");
      const last = standing.reduce<ProvenGame | null>(
        (a, g) => (a && a.l2SequenceNumber >= g.l2SequenceNumber ? a : g),
        null,
      );
      if (last && o.block > last.l2SequenceNumber) return pending(o, at, last, l1.counts.proofCalls);
      return failed(
        `no game on L1 covers Base block ${o.block}${last ? ` (games cover up to block ${last.l2SequenceNumber}; Base's type-${o.system.gameType} games start at their first anchor, and older blocks lie only under retired games)` : ""}`,
        proven.map(summary),
      );
    }
    if (usable.length === 0)
      return failed(
        `every game covering Base block ${o.block} is invalid: ${covering.map((g) => `${g.address} (${gameStanding(g).detail})`).join("; ")}`,
        covering.map(summary),
      );
    // Games of one range cover the block with the root of the same Base block.
    const rootBlock = coveringRoot(usable[0]!, o.block)!.block;
    const { header: top, root } = await recomputedRoot(o.base, rootBlock);
    const matching = usable
      .filter((g) => coveringRoot(g, o.block)!.root.toLowerCase() === root.toLowerCase())
      .sort((a, b) => STANDING_RANK[gameStanding(b).kind] - STANDING_RANK[gameStanding(a).kind] || a.index - b.index);
    if (matching.length === 0) {
      const claims = usable.map((g) => `game ${g.address} claims ${coveringRoot(g, o.block)!.root}`).join("; ");
      return failed(
        `no root posted on L1 commits to Base block ${rootBlock} with hash ${top.hash}: its output root from the Base RPC is ${root}; ${claims}`,
        covering.map(summary),
      );
    }
    const chosen = matching[0]!;
    const cover = coveringRoot(chosen, o.block)!;
    const { hash, walked } = await walkBack(o.base, top, o.block);
    const s = summary(chosen);
    return {
      status: "proven",
      detail: `Base block ${o.block} (${hash}) is committed to by game ${chosen.address}'s root ${cover.index} for block ${cover.block}${walked ? `, ${walked} parent hash${walked === 1 ? "" : "es"} back` : ""}; the game is ${s.detail}; proven at Ethereum block ${at.number} (${at.hash})`,
      l1: at,
      blockHash: hash,
      game: { ...s, rootIndex: cover.index, rootBlock: Number(cover.block), root: cover.root },
      games: covering.filter((g) => g !== chosen).map(summary),
      headersWalked: walked,
      l1ProofCalls: l1.counts.proofCalls,
    };
  } catch (e) {
    if (e instanceof L1ReadError) return failed(e.message);
    throw e;
  }
}

/** The block is newer than every root posted: when the next one covering it could come. */
async function pending(
  o: BaseBlockFromL1Options,
  at: L1Anchoring["l1"],
  last: ProvenGame,
  proofCalls: number,
): Promise<L1Anchoring> {
  const steps = (o.block - last.l2SequenceNumber + last.blockInterval - 1n) / last.blockInterval;
  const nextBlock = last.l2SequenceNumber + steps * last.blockInterval;
  // When the Base RPC's chain reaches that block: from its head and its block time (a hint, unproven).
  let about: number | null = null;
  let when = "";
  try {
    const head = await baseHeader(
      o.base,
      BigInt((await o.base.request({ method: "eth_blockNumber" } as never)) as Hex),
    );
    const parent = await baseHeader(o.base, BigInt(head.number) - 1n);
    const seconds = Number(BigInt(head.timestamp) - BigInt(parent.timestamp)) || 1;
    const behind = nextBlock - BigInt(head.number);
    if (behind <= 0n) when = `; Base has reached it (head ${BigInt(head.number)}): its game is not posted yet`;
    else {
      about = Number(BigInt(head.timestamp) + behind * BigInt(seconds));
      when = `; Base's head is block ${BigInt(head.number)}, ${behind} blocks before it (about ${behind * BigInt(seconds)} s at its ${seconds} s a block), then the proposer posts its game`;
    }
  } catch {
    // No estimate: the block is pending all the same.
  }
  return {
    status: "pending",
    detail: `Base block ${o.block} is newer than every root posted on L1 at Ethereum block ${at.number}: the newest game, ${last.address}, covers up to block ${last.l2SequenceNumber}; the root covering it comes with the game for block ${nextBlock}${when}`,
    l1: at,
    blockHash: null,
    game: null,
    games: [summary(last)],
    headersWalked: 0,
    next: { block: Number(nextBlock), baseTimeAbout: about },
    l1ProofCalls: proofCalls,
  };
}
