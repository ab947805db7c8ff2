/**
 * The stop handles of an app's background work (the paid gateway's recovery sweep, ...): whoever
 * starts a task registers its stop here, and the composition root (services.ts) calls `stopAll`
 * from `close()`, so a closed app leaves no timer behind.
 */
export class BackgroundTasks {
  private readonly stops: Array<() => void | Promise<void>> = [];

  add(stop: () => void | Promise<void>): void {
    this.stops.push(stop);
  }

  /** Stops every task, the last started first. */
  async stopAll(): Promise<void> {
    for (const stop of this.stops.splice(0).reverse()) await stop();
  }
}
