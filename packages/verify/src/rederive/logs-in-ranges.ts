/**
 * A reader's `eth_getLogs` over a long range, in steps a provider accepts: split in ranges of
 * `step` blocks and halved where the RPC refuses one (its cap on a range's blocks or on its
 * result size), so the same call works against anvil, a node and a hosted provider.
 */

/** The first step tried; a provider that caps lower is met by halving. */
export const LOG_RANGE_BLOCKS = 100_000n;

/** Logs in `[from, to]`; `calls` counts the requests made. */
export async function logsInRanges<T>(
  from: bigint,
  to: bigint,
  step: bigint,
  fetch: (from: bigint, to: bigint) => Promise<T[]>,
  calls: { n: number },
): Promise<T[]> {
  const out: T[] = [];
  for (let start = from; start <= to; ) {
    let end = start + step - 1n < to ? start + step - 1n : to;
    for (;;) {
      try {
        calls.n++;
        out.push(...(await fetch(start, end)));
        break;
      } catch (e) {
        // A provider's cap on a range (its block count or its result size): ask for less.
        if (end === start) throw e;
        end = start + (end - start) / 2n;
      }
    }
    start = end + 1n;
  }
  return out;
}
