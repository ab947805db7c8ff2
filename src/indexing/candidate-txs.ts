/**
 * Which transactions of the block being indexed recorded a registry-violation candidate.
 *
 * A candidate is explained only by a later event of its own transaction (spec 2.6 rule 2), yet
 * the events that may explain one are common (every transfer into a listed account could be a
 * loan's return leg): asked of the store each time, they cost one lookup per event for a handful
 * of candidates (102,397 lookups at bench scale 1100). This remembers the transactions of the
 * current block that recorded one, so only those are asked.
 *
 * What it does not know it never skips: the first block a process handles (a restart may resume
 * mid-block, after candidates the earlier process recorded) is always asked, and a block handled
 * again after a reorg re-records its candidates before any event can explain them.
 */
export type CandidateTxs = {
  /** A candidate was recorded in transaction `tx` of `block` on `chainId`. */
  recorded(chainId: number, block: bigint, tx: string): void;
  /** Whether the store may hold a candidate of transaction `tx`; false only when it cannot. */
  mayHold(chainId: number, block: bigint, tx: string): boolean;
};

export function createCandidateTxs(): CandidateTxs {
  const firstBlock = new Map<number, bigint>();
  const current = new Map<number, { block: bigint; txs: Set<string> }>();
  const seen = (chainId: number, block: bigint) => {
    if (!firstBlock.has(chainId)) firstBlock.set(chainId, block);
  };
  return {
    recorded(chainId, block, tx) {
      seen(chainId, block);
      const at = current.get(chainId);
      // Only the block in hand matters: a transaction never spans blocks.
      if (at?.block === block) at.txs.add(tx.toLowerCase());
      else current.set(chainId, { block, txs: new Set([tx.toLowerCase()]) });
    },
    mayHold(chainId, block, tx) {
      seen(chainId, block);
      if (block <= firstBlock.get(chainId)!) return true;
      const at = current.get(chainId);
      return at?.block === block && at.txs.has(tx.toLowerCase());
    },
  };
}
