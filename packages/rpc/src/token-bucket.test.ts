import { describe, expect, it } from "vitest";
import { TokenBucket } from "./token-bucket.js";

/** A clock the test moves by hand (ms). */
function clock() {
  let t = 0;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe("the token bucket", () => {
  it("hands out its burst at once, then one token per 1/rate seconds, each taker behind the one before", () => {
    const c = clock();
    const b = new TokenBucket(4, 3, c.now); // a token every 250 ms
    for (let i = 0; i < 3; i++) expect(b.reserve(1, 0)).toEqual({ ok: true, waitMs: 0 });
    expect(b.reserve(1, 1_000)).toEqual({ ok: true, waitMs: 250 });
    expect(b.reserve(1, 1_000)).toEqual({ ok: true, waitMs: 500 });
    expect(b.available()).toBe(-2);
  });

  it("refuses what would wait past the bound, says how long, and takes nothing", () => {
    const c = clock();
    const b = new TokenBucket(2, 2, c.now);
    b.reserve(2, 0);
    expect(b.reserve(1, 499)).toEqual({ ok: false, retryAfterMs: 500 });
    expect(b.available()).toBe(0);
    c.advance(500);
    expect(b.reserve(1, 0)).toEqual({ ok: true, waitMs: 0 });
  });

  it("lets a taker that must be behind none in only while nobody is waiting", () => {
    const c = clock();
    const b = new TokenBucket(10, 1, c.now);
    expect(b.reserve(1, 1_000, { behindNone: true })).toEqual({ ok: true, waitMs: 0 });
    // The balance is at zero: nobody waits, so a newcomer may wait for the next token.
    expect(b.reserve(1, 1_000, { behindNone: true })).toEqual({ ok: true, waitMs: 100 });
    // Now one waits: a newcomer is refused however long it would wait; one already in queues.
    expect(b.reserve(1, 1_000, { behindNone: true })).toEqual({ ok: false, retryAfterMs: 200 });
    expect(b.reserve(1, 1_000)).toEqual({ ok: true, waitMs: 200 });
  });

  it("refills at its rate up to the burst, never past it", () => {
    const c = clock();
    const b = new TokenBucket(10, 5, c.now);
    b.reserve(5, 0);
    c.advance(200);
    expect(b.available()).toBeCloseTo(2);
    c.advance(60_000);
    expect(b.available()).toBe(5);
  });

  it("takes a request heavier than the burst from a full bucket only, which then owes the rest", () => {
    const c = clock();
    const b = new TokenBucket(10, 20, c.now);
    expect(b.reserve(60, 0)).toEqual({ ok: true, waitMs: 0 });
    expect(b.available()).toBe(-40);
    expect(b.reserve(20, 0)).toEqual({ ok: false, retryAfterMs: 6_000 });
  });

  it("sends no more than burst + rate × t in any window, whatever the takers ask", () => {
    const c = clock();
    const rate = 5;
    const burst = 8;
    const b = new TokenBucket(rate, burst, c.now);
    const sent: number[] = [];
    // 40 takers every 10 ms for 3 s, each accepting up to 700 ms of wait.
    for (let t = 0; t < 3_000; t += 10) {
      for (let i = 0; i < 40; i++) {
        const r = b.reserve(1, 700);
        if (r.ok) sent.push(t + r.waitMs);
      }
      c.advance(10);
    }
    sent.sort((a, b2) => a - b2);
    for (let i = 0; i < sent.length; i++)
      for (let j = i; j < sent.length; j++) {
        const window = (sent[j]! - sent[i]!) / 1000;
        expect(j - i + 1).toBeLessThanOrEqual(burst + rate * window + 1e-9);
      }
    // And it does hand out that much: the burst, then the rate.
    expect(sent.length).toBeGreaterThanOrEqual(burst + rate * 3 - 1);
  });

  it("wants a positive rate and a burst of at least one", () => {
    expect(() => new TokenBucket(0, 5)).toThrow(RangeError);
    expect(() => new TokenBucket(1, 0.5)).toThrow(RangeError);
  });

  it("leaves what a taker must keep for others: it waits for tokens above the reserve, others take the reserve", () => {
    const c = clock();
    const b = new TokenBucket(10, 4, c.now); // a token every 100 ms
    expect(b.reserve(2, 0, { keep: 1 })).toEqual({ ok: true, waitMs: 0 });
    // 2 left: taking 2 would leave nothing of the 1 to keep; within 100 ms, it would.
    expect(b.reserve(2, 50, { keep: 1 })).toEqual({ ok: false, retryAfterMs: 100 });
    // A taker with nothing to keep takes the reserve.
    expect(b.reserve(2, 0)).toEqual({ ok: true, waitMs: 0 });
    // A reserve larger than the burst leaves beside the taking is cut to what it leaves.
    c.advance(400);
    expect(b.reserve(3, 0, { keep: 5 })).toEqual({ ok: true, waitMs: 0 });
  });

  it("lets a taker that keeps a reserve in, behind none, only while the balance is at or above that reserve", () => {
    const c = clock();
    const b = new TokenBucket(10, 4, c.now);
    expect(b.reserve(2, 1_000, { behindNone: true, keep: 2 })).toEqual({ ok: true, waitMs: 0 });
    // 2 left, as much as it keeps: nobody waits, so a newcomer may wait 100 ms for its token.
    expect(b.reserve(1, 1_000, { behindNone: true, keep: 2 })).toEqual({ ok: true, waitMs: 100 });
    // 1 left, below the reserve: someone waits, the newcomer is refused; one already in queues.
    expect(b.reserve(1, 1_000, { behindNone: true, keep: 2 })).toEqual({ ok: false, retryAfterMs: 200 });
    expect(b.reserve(1, 1_000, { keep: 2 })).toEqual({ ok: true, waitMs: 200 });
  });
});
