/**
 * The games of Base's DisputeGameFactory on Ethereum, each fact executed over proven L1 state
 * (./proven-l1.ts): the factory's list entry, the game's arguments (from its clone's proven code),
 * its status and timings, and the AnchorStateRegistry's judgement of it. Which indices to prove is
 * found first with plain eth_call on the L1 RPC (a binary search over the list by L2 block): that
 * search only chooses what to prove; a lie in it can hide a game (the check then fails or is
 * pending), never make one up.
 */
import type { Address, Hex, PublicClient } from "viem";
import { bytesToHex, hexToBytes } from "viem";
import type { ProvenGame } from "./game-standing.js";
import { aggregateVerifierAbi, anchorStateRegistryAbi, disputeGameFactoryAbi } from "./l1-abi.js";
import type { ProvenL1 } from "./proven-l1.js";

export type ProofSystem = { disputeGameFactory: Address; anchorStateRegistry: Address; gameType: number };

/** Where a game sits in the factory's list and which Base blocks its roots cover. */
export type GameEntry = {
  index: number;
  address: Address;
  gameType: number;
  startingBlock: bigint;
  l2SequenceNumber: bigint;
};

/** The game at `index` of the factory's list and its range, proven; null when it is of another game type. */
export async function provenGameEntry(l1: ProvenL1, system: ProofSystem, index: number): Promise<GameEntry | null> {
  const [gameType, , address] = (await l1.call(system.disputeGameFactory, disputeGameFactoryAbi, "gameAtIndex", [
    BigInt(index),
  ])) as readonly [number, bigint, Address];
  if (gameType !== system.gameType) return null;
  const [startingBlock, l2SequenceNumber] = (await Promise.all([
    l1.call(address, aggregateVerifierAbi, "startingBlockNumber"),
    l1.call(address, aggregateVerifierAbi, "l2SequenceNumber"),
  ])) as [bigint, bigint];
  return { index, address, gameType, startingBlock, l2SequenceNumber };
}

/** Everything a reader judges a game by, proven: its roots, status, timings and the registry's judgement. */
export async function provenGame(l1: ProvenL1, system: ProofSystem, entry: GameEntry): Promise<ProvenGame> {
  const { address, index, gameType } = entry;
  const game = (name: (typeof aggregateVerifierAbi)[number]["name"]) => l1.call(address, aggregateVerifierAbi, name);
  const registry = (name: (typeof anchorStateRegistryAbi)[number]["name"]) =>
    l1.call(system.anchorStateRegistry, anchorStateRegistryAbi, name, [address]) as Promise<boolean>;
  // All at once: the proven state fetches what they touch in one round per account.
  const [
    rootClaim,
    blockInterval,
    intermediateBlockInterval,
    roots,
    status,
    createdAt,
    resolvedAt,
    expectedResolution,
    proofCount,
    countered,
    registered,
    respected,
    blacklisted,
    retired,
    finalized,
    claimValid,
    finalityDelaySeconds,
  ] = await Promise.all([
    game("rootClaim") as Promise<Hex>,
    game("BLOCK_INTERVAL") as Promise<bigint>,
    game("INTERMEDIATE_BLOCK_INTERVAL") as Promise<bigint>,
    game("intermediateOutputRoots") as Promise<Hex>,
    game("status") as Promise<number>,
    game("createdAt") as Promise<bigint>,
    game("resolvedAt") as Promise<bigint>,
    game("expectedResolution") as Promise<bigint>,
    game("proofCount") as Promise<number>,
    game("counteredByIntermediateRootIndexPlusOne") as Promise<bigint>,
    registry("isGameRegistered"),
    registry("isGameRespected"),
    registry("isGameBlacklisted"),
    registry("isGameRetired"),
    registry("isGameFinalized"),
    registry("isGameClaimValid"),
    l1.call(system.anchorStateRegistry, anchorStateRegistryAbi, "disputeGameFinalityDelaySeconds") as Promise<bigint>,
  ]);
  const bytes = hexToBytes(roots);
  return {
    address,
    index,
    gameType,
    rootClaim,
    startingBlock: entry.startingBlock,
    l2SequenceNumber: entry.l2SequenceNumber,
    blockInterval,
    intermediateBlockInterval,
    intermediateRoots: Array.from({ length: Math.floor(bytes.length / 32) }, (_, i) =>
      bytesToHex(bytes.slice(32 * i, 32 * i + 32)),
    ),
    status,
    createdAt,
    resolvedAt,
    expectedResolution,
    proofCount,
    counteredIndexPlusOne: countered,
    registry: { registered, respected, blacklisted, retired, finalized, claimValid, finalityDelaySeconds },
  };
}

/** The factory's number of games, proven. */
export async function provenGameCount(l1: ProvenL1, system: ProofSystem): Promise<number> {
  return Number((await l1.call(system.disputeGameFactory, disputeGameFactoryAbi, "gameCount")) as bigint);
}

/** Indices probed at once in each round of the search: the list of ~15,000 games (mainnet, 2026-12) takes 4 rounds. */
const PROBES_PER_ROUND = 16;

/**
 * The first index whose game claims `block` or a later one, by a 16-way search with eth_call at the
 * trusted L1 block (a hint: games are listed roughly in L2 order; a game of another type counts as
 * older, as Base's retired fault games are). Each round asks 16 indices at once, so the search
 * costs rounds of round trips, not one per halving.
 */
export async function hintFirstIndexAtOrAfter(
  client: PublicClient,
  system: ProofSystem,
  l1Block: bigint,
  count: number,
  block: bigint,
): Promise<number> {
  const l2BlockAt = async (index: number): Promise<bigint> => {
    const [gameType, , proxy] = await client.readContract({
      address: system.disputeGameFactory,
      abi: disputeGameFactoryAbi,
      functionName: "gameAtIndex",
      args: [BigInt(index)],
      blockNumber: l1Block,
    });
    if (gameType !== system.gameType) return -1n;
    return client
      .readContract({
        address: proxy,
        abi: aggregateVerifierAbi,
        functionName: "l2SequenceNumber",
        blockNumber: l1Block,
      })
      .catch(() => -1n);
  };
  // The answer is in [lo, hi]: every index below lo claims an older block, hi claims it or later (or is the end).
  let lo = 0;
  let hi = count;
  while (lo < hi) {
    const step = Math.max(1, Math.ceil((hi - lo) / (PROBES_PER_ROUND + 1)));
    const probes: number[] = [];
    for (let i = lo + step - 1; i < hi && probes.length < PROBES_PER_ROUND; i += step) probes.push(i);
    const blocks = await Promise.all(probes.map(l2BlockAt));
    const firstAtOrAfter = blocks.findIndex((b) => b >= block);
    if (firstAtOrAfter < 0) lo = probes.at(-1)! + 1;
    else {
      hi = probes[firstAtOrAfter]!;
      if (firstAtOrAfter > 0) lo = probes[firstAtOrAfter - 1]! + 1;
    }
  }
  return lo;
}
