/**
 * What a dispute game on Ethereum says of a Base block, from its proven facts: which of its roots
 * covers the block (the first intermediate root at or after it), and whether the game can be
 * rested on: final (resolved DEFENDER_WINS and the registry counts its claim valid), resolved and
 * waiting for the finality delay, in progress (resolves at its expected time unless challenged),
 * or invalid (not the factory's, blacklisted, retired, not of the respected type, challenged, or
 * lost). Pure: the facts are executed over proven L1 state by ./prove-games.ts.
 */
import type { Address, Hex } from "viem";

/** Base's GameStatus. */
const IN_PROGRESS = 0;
const CHALLENGER_WINS = 1;
const DEFENDER_WINS = 2;

/** A type-621 game's facts, each executed over proven L1 state. */
export type ProvenGame = {
  address: Address;
  /** Its place in the factory's list. */
  index: number;
  gameType: number;
  rootClaim: Hex;
  /** The Base block of its parent's root (the game's range starts after it). */
  startingBlock: bigint;
  /** The Base block of its root claim. */
  l2SequenceNumber: bigint;
  blockInterval: bigint;
  intermediateBlockInterval: bigint;
  intermediateRoots: Hex[];
  status: number;
  createdAt: bigint;
  resolvedAt: bigint;
  expectedResolution: bigint;
  proofCount: number;
  /** The intermediate root a ZK proof countered, plus one (0: none). */
  counteredIndexPlusOne: bigint;
  registry: {
    registered: boolean;
    respected: boolean;
    blacklisted: boolean;
    retired: boolean;
    finalized: boolean;
    claimValid: boolean;
    finalityDelaySeconds: bigint;
  };
};

export type Standing =
  | { kind: "final"; detail: string }
  | { kind: "resolved"; detail: string; finalAt: bigint }
  | { kind: "in-progress"; detail: string; finalAt: bigint }
  | { kind: "invalid"; detail: string };

const iso = (unix: bigint) => new Date(Number(unix) * 1000).toISOString().replace(".000Z", "Z");

/** Why a game's own arguments do not make a type-621 game, or null when they do. */
function malformed(g: ProvenGame): string | null {
  if (g.intermediateBlockInterval === 0n || g.blockInterval % g.intermediateBlockInterval !== 0n)
    return `its intervals (${g.blockInterval}, ${g.intermediateBlockInterval}) do not divide`;
  if (g.l2SequenceNumber !== g.startingBlock + g.blockInterval)
    return `its block ${g.l2SequenceNumber} is not its parent's ${g.startingBlock} + ${g.blockInterval}`;
  if (BigInt(g.intermediateRoots.length) !== g.blockInterval / g.intermediateBlockInterval)
    return `it carries ${g.intermediateRoots.length} intermediate roots, not ${g.blockInterval / g.intermediateBlockInterval}`;
  if (g.intermediateRoots.at(-1)?.toLowerCase() !== g.rootClaim.toLowerCase())
    return "its last intermediate root is not its root claim";
  return null;
}

export function gameStanding(g: ProvenGame): Standing {
  const r = g.registry;
  const bad = malformed(g);
  if (bad) return { kind: "invalid", detail: `malformed: ${bad}` };
  if (!r.registered) return { kind: "invalid", detail: "not registered by the DisputeGameFactory" };
  if (r.blacklisted) return { kind: "invalid", detail: "blacklisted by the guardian (AnchorStateRegistry)" };
  if (r.retired) return { kind: "invalid", detail: "retired: created before the registry's retirement timestamp" };
  if (!r.respected) return { kind: "invalid", detail: "not of the respected game type when it was created" };
  if (g.status === CHALLENGER_WINS)
    return { kind: "invalid", detail: `lost: resolved CHALLENGER_WINS at ${iso(g.resolvedAt)}` };
  if (g.counteredIndexPlusOne > 0n)
    return {
      kind: "invalid",
      detail: `challenged: a ZK proof countered its intermediate root ${g.counteredIndexPlusOne - 1n}`,
    };
  const proofs = `${g.proofCount} proof${g.proofCount === 1 ? "" : "s"}`;
  if (g.status === DEFENDER_WINS) {
    if (r.claimValid)
      return { kind: "final", detail: `resolved DEFENDER_WINS at ${iso(g.resolvedAt)}, final (${proofs})` };
    const finalAt = g.resolvedAt + r.finalityDelaySeconds + 1n;
    return {
      kind: "resolved",
      detail: `resolved DEFENDER_WINS at ${iso(g.resolvedAt)}, final at ${iso(finalAt)}`,
      finalAt,
    };
  }
  if (g.status === IN_PROGRESS)
    return {
      kind: "in-progress",
      detail: `in progress (${proofs}): resolves at ${iso(g.expectedResolution)} unless challenged; until then it rests on its proposer's proof`,
      finalAt: g.expectedResolution + r.finalityDelaySeconds,
    };
  return { kind: "invalid", detail: `unknown status ${g.status}` };
}

/** Final before resolved before in progress: the game a reader rests on when several cover a block. */
export const STANDING_RANK: Record<Standing["kind"], number> = { final: 3, resolved: 2, "in-progress": 1, invalid: 0 };

/** The game's root that covers `block`: the first of its intermediate roots at or after it (null: outside its range). */
export function coveringRoot(g: ProvenGame, block: bigint): { index: number; block: bigint; root: Hex } | null {
  if (block <= g.startingBlock || block > g.l2SequenceNumber) return null;
  const index = (block - g.startingBlock + g.intermediateBlockInterval - 1n) / g.intermediateBlockInterval - 1n;
  const root = g.intermediateRoots[Number(index)];
  if (root === undefined) return null;
  return { index: Number(index), block: g.startingBlock + (index + 1n) * g.intermediateBlockInterval, root };
}
