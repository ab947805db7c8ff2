/**
 * The games on the L1 devnet, read as a verifier reads them: the factory's list for each game's
 * address and creation time, the clone's code for what it claims (root, L2 block, parent,
 * intermediate roots), the game's storage through its getters for where it stands.
 */
import { BASE_PROOF_SYSTEM, type GameCloneArgs, parseGameClone } from "@kusd/core";
import type { Address, PublicClient } from "viem";
import { aggregateVerifierAbi, anchorStateRegistryAbi, disputeGameFactoryAbi } from "../../abis/index.js";

export type GameRecord = GameCloneArgs & { index: number; address: Address; gameType: number; createdAt: bigint };

export type GameState = {
  status: number;
  /** 0 when never challenged, else the challenged intermediate root's index + 1. */
  counteredBy: bigint;
  expectedResolution: bigint;
  resolvedAt: bigint;
  blacklisted: boolean;
  /** Created at or before the registry's retirement timestamp: no longer a valid game. */
  retired: boolean;
};

const factory = { address: BASE_PROOF_SYSTEM.disputeGameFactory, abi: disputeGameFactoryAbi } as const;
const registry = { address: BASE_PROOF_SYSTEM.anchorStateRegistry, abi: anchorStateRegistryAbi } as const;

export async function gameCount(client: PublicClient): Promise<number> {
  return Number(await client.readContract({ ...factory, functionName: "gameCount" }));
}

/** Games `from` to the end of the factory's list, each with the arguments its code holds. */
export async function readGames(client: PublicClient, from: number, to: number): Promise<GameRecord[]> {
  const indices = Array.from({ length: Math.max(0, to - from) }, (_, i) => from + i);
  return Promise.all(
    indices.map(async (index) => {
      const [gameType, createdAt, address] = await client.readContract({
        ...factory,
        functionName: "gameAtIndex",
        args: [BigInt(index)],
      });
      const code = await client.getCode({ address });
      if (!code) throw new Error(`game ${index} at ${address} has no code`);
      return { index, address, gameType, createdAt, ...parseGameClone(code) };
    }),
  );
}

export async function readGameState(client: PublicClient, game: Address): Promise<GameState> {
  const read = <F extends "status" | "counteredByIntermediateRootIndexPlusOne" | "expectedResolution" | "resolvedAt">(
    functionName: F,
  ) => client.readContract({ address: game, abi: aggregateVerifierAbi, functionName });
  const [status, counteredBy, expectedResolution, resolvedAt, blacklisted, retired] = await Promise.all([
    read("status"),
    read("counteredByIntermediateRootIndexPlusOne"),
    read("expectedResolution"),
    read("resolvedAt"),
    client.readContract({ ...registry, functionName: "isGameBlacklisted", args: [game] }),
    client.readContract({ ...registry, functionName: "isGameRetired", args: [game] }),
  ]);
  return { status, counteredBy, expectedResolution, resolvedAt: BigInt(resolvedAt), blacklisted, retired };
}

/** The registry's anchor: the newest output root a finalized game established, and its L2 block. */
export async function anchorRoot(client: PublicClient): Promise<{ root: `0x${string}`; l2BlockNumber: bigint }> {
  const [root, l2BlockNumber] = await client.readContract({ ...registry, functionName: "getAnchorRoot" });
  return { root, l2BlockNumber };
}
