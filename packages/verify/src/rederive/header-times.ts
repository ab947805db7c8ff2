/**
 * Block times from the reader's RPC, each header read once. Block times never decrease along a
 * chain, so where only a comparison with a time matters (which registry version is in force,
 * which UTC day a block falls in) the few blocks where the answer changes are found by bisection,
 * instead of reading the header of every block that asks.
 */
import type { PublicClient } from "viem";

export class HeaderTimes {
  /** Headers read (eth_getBlockByNumber). */
  calls = 0;
  private readonly known = new Map<bigint, Promise<number>>();

  constructor(
    private readonly client: PublicClient,
    seed: readonly (readonly [bigint, number])[] = [],
  ) {
    for (const [b, t] of seed) this.known.set(b, Promise.resolve(t));
  }

  /** The block's time, unix seconds. */
  at(block: bigint): Promise<number> {
    let t = this.known.get(block);
    if (!t) {
      this.calls++;
      t = this.client.getBlock({ blockNumber: block }).then((b) => Number(b.timestamp));
      this.known.set(block, t);
    }
    return t;
  }

  /** The first block of `lo..hi` dated at or after `time` (null: none is). */
  async firstAtOrAfter(time: number, lo: bigint, hi: bigint): Promise<bigint | null> {
    if ((await this.at(hi)) < time) return null;
    while (lo < hi) {
      const mid = (lo + hi) / 2n;
      if ((await this.at(mid)) >= time) hi = mid;
      else lo = mid + 1n;
    }
    return lo;
  }
}

/**
 * For blocks of `from..to`: the registry time of a block, the latest `issued_at` the block's time
 * has reached (-Infinity: none). The registry rule compares a block's time with issued_at only,
 * so this time selects the same version as the block's own.
 */
export async function registryTimes(
  times: HeaderTimes,
  issuedAts: readonly number[],
  from: bigint,
  to: bigint,
): Promise<(block: bigint) => number> {
  const distinct = [...new Set(issuedAts)];
  const firsts = await Promise.all(distinct.map((t) => times.firstAtOrAfter(t, from, to)));
  const reached = distinct.map((t, i) => ({ t, first: firsts[i]! })).filter((x) => x.first !== null);
  return (block) =>
    reached.filter((x) => x.first! <= block).reduce((a, x) => Math.max(a, x.t), Number.NEGATIVE_INFINITY);
}
