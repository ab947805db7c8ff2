/**
 * Which L2 blocks get an output root: a game follows its parent by exactly `blockInterval` blocks
 * (AggregateVerifier reverts UnexpectedBlockNumber otherwise) and carries the root of every
 * `intermediateBlockInterval`-th block after the parent's, its own block last.
 */
export type Cadence = { blockInterval: number; intermediateBlockInterval: number };

/** The blocks whose roots a game on a parent at `parentBlock` carries, in order; the last is the game's own. */
export function checkpointBlocks(parentBlock: bigint, c: Cadence): bigint[] {
  if (c.blockInterval <= 0 || c.intermediateBlockInterval <= 0 || c.blockInterval % c.intermediateBlockInterval !== 0)
    throw new Error(`block interval ${c.blockInterval} is not a multiple of ${c.intermediateBlockInterval}`);
  const count = c.blockInterval / c.intermediateBlockInterval;
  return Array.from({ length: count }, (_, i) => parentBlock + BigInt((i + 1) * c.intermediateBlockInterval));
}

/** The block of the next game on `parentBlock` once the chain's `head` has reached it; null before. */
export function dueProposal(parentBlock: bigint, head: bigint, c: Cadence): bigint | null {
  const next = parentBlock + BigInt(c.blockInterval);
  return next <= head ? next : null;
}
