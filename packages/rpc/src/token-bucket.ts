/**
 * A token bucket that hands out reservations: `ratePerSecond` tokens flow in, up to `burst`, and
 * a taker that finds too few may take them ahead (the balance goes below zero) and wait until they
 * would have arrived, provided that is within the wait it accepts. Takers are thus served in the
 * order they asked, nothing polls, and whatever is sent at or after its reserved moment never
 * exceeds `burst + ratePerSecond × t` over any t seconds. A refusal takes nothing and says how
 * long the taker would have had to wait.
 *
 * Hand-written rather than a library's: the rate limiters at hand (rate-limiter-flexible's among
 * them) count fixed windows, let twice the burst through across a window's edge, and wait without
 * a bound; the bound and the exact wait are what the budget answers with (Retry-After).
 */

export type Reservation = { ok: true; waitMs: number } | { ok: false; retryAfterMs: number };

export class TokenBucket {
  private tokens: number;
  private at: number;

  constructor(
    readonly ratePerSecond: number,
    readonly burst: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    if (!(ratePerSecond > 0) || !(burst >= 1))
      throw new RangeError("a token bucket needs a positive rate and a burst of at least 1");
    this.tokens = burst;
    this.at = now();
  }

  private refill(): void {
    const t = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((t - this.at) * this.ratePerSecond) / 1000);
    this.at = t;
  }

  /**
   * Takes `n` tokens if they are there within `maxWaitMs`: how long to wait before sending. A
   * taking larger than the burst needs a full bucket (and leaves it owing the rest). `behindNone`:
   * only while nobody is waiting (the balance is not below zero), whatever the wait would be.
   * `keep`: tokens this taker must leave in the bucket (a reserve for others), at most what the
   * burst holds beside the taking; behind none then means the balance is not below `keep`.
   */
  reserve(n: number, maxWaitMs: number, o: { behindNone?: boolean; keep?: number } = {}): Reservation {
    this.refill();
    const need = Math.min(n, this.burst);
    const keep = Math.max(0, Math.min(o.keep ?? 0, this.burst - need));
    const waitMs = need + keep <= this.tokens ? 0 : ((need + keep - this.tokens) * 1000) / this.ratePerSecond;
    // Behind none: nobody waits, that is, the balance is not below what this taker must keep.
    if (waitMs > maxWaitMs || (o.behindNone && this.tokens < keep)) return { ok: false, retryAfterMs: waitMs };
    this.tokens -= n;
    return { ok: true, waitMs };
  }

  /** Gives back tokens reserved and not used (never past the burst). */
  refund(n: number): void {
    this.refill();
    this.tokens = Math.min(this.burst, this.tokens + n);
  }

  /** Tokens in the bucket now; below zero, what waiting takers have reserved ahead. */
  available(): number {
    this.refill();
    return this.tokens;
  }
}
