/**
 * Resolves the first time the indexer counts as caught up with the chain (`indexerCaughtUp`:
 * within CAUGHT_UP_LAG blocks of the RPC's head), asking every `everyMs`; a failed ask is asked
 * again. What the signing API's background work waits for (background.ts).
 */
export type CatchUpWatch = { caughtUp: Promise<void>; stop(): void };

export function firstCatchUp(isCaughtUp: () => Promise<boolean>, everyMs = 1_000): CatchUpWatch {
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  let resolve!: () => void;
  const caughtUp = new Promise<void>((r) => {
    resolve = r;
  });
  const ask = async () => {
    timer = null;
    if (stopped) return;
    if (await isCaughtUp().catch(() => false)) return resolve();
    if (!stopped) timer = setTimeout(ask, everyMs).unref();
  };
  void ask();
  return {
    caughtUp,
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}
