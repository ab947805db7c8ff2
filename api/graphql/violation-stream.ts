/**
 * The live feed behind the `violations` subscription: polls the indexed violations, emits each
 * new one as DETECTED and, when a reorg takes one away within `reorgWindow` blocks, RETRACTED.
 */
import { type IndexedViolation, indexedHead, type ReadDb, violationsAfter } from "../io/indexed-reads.js";

export type ViolationEvent = { kind: "DETECTED" | "RETRACTED"; violation: IndexedViolation };

export const pause = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(t);
        resolve();
      },
      { once: true },
    );
  });

export async function* violationStream(
  db: ReadDb,
  o: { fromBlock?: bigint; pollMs?: number; reorgWindow?: bigint; signal?: AbortSignal },
): AsyncGenerator<ViolationEvent> {
  const pollMs = o.pollMs ?? 1_000;
  const window = o.reorgWindow ?? 64n;
  const start = await indexedHead(db, "base");
  let floor = o.fromBlock !== undefined ? o.fromBlock - 1n : (start?.blockNumber ?? 0n);
  const known = new Map<string, IndexedViolation>();
  while (!o.signal?.aborted) {
    const head = await indexedHead(db, "base");
    if (head && head.blockNumber > floor) {
      const rows = await violationsAfter(db, {
        after: null,
        fromBlock: floor + 1n,
        toBlock: head.blockNumber,
        limit: 10_000,
      });
      const seen = new Set(rows.map((r) => r.id));
      for (const [id, v] of known) {
        if (!seen.has(id)) {
          known.delete(id);
          yield { kind: "RETRACTED", violation: v };
        }
      }
      for (const r of rows) {
        if (known.has(r.id)) continue;
        known.set(r.id, r);
        yield { kind: "DETECTED", violation: r };
      }
      const final = head.blockNumber - window;
      if (final > floor) {
        floor = final;
        for (const [id, v] of known) if (v.blockNumber <= floor) known.delete(id);
      }
    }
    await pause(pollMs, o.signal);
  }
}
