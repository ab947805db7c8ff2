/**
 * The app's background work (the statements' cadence, anchoring, the paid gateway's recovery
 * sweep): whoever starts a task registers it here, and the composition root (services.ts) calls
 * `stopAll` from `close()`, so a closed app leaves no timer behind.
 *
 * A task given to `start` begins once `ready` settles: the signing API passes the indexer's first
 * catch-up, since each of these tasks reads or writes the operator store and none has work while
 * the indexer backfills (a statement needs the head; anchors and settlements follow statements and
 * payments, which need it too). Starting them at once opened the store's embedded database in the
 * indexer's process and ran their polls on its thread for the whole backfill (open-on-demand.ts).
 */
type Stop = () => void | Promise<void>;

export class BackgroundTasks {
  private readonly stops: Stop[] = [];
  private stopped = false;

  /** `ready`: when tasks given to `start` begin (at once by default); a rejection starts none. */
  constructor(private readonly ready: Promise<unknown> = Promise.resolve()) {}

  /** Registers the stop of a task already running. */
  add(stop: Stop): void {
    this.stops.push(stop);
  }

  /** Runs `task` once ready, unless stopAll came first; the stop it returns is registered. */
  start(task: () => Stop): void {
    let stop: Stop | null = null;
    this.ready.then(
      () => {
        if (!this.stopped) stop = task();
      },
      () => {},
    );
    this.add(() => stop?.());
  }

  /** Stops every task, the last started first. */
  async stopAll(): Promise<void> {
    this.stopped = true;
    for (const stop of this.stops.splice(0).reverse()) await stop();
  }
}
