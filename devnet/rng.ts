/** Seeded, platform-independent randomness for the scripted history and the venue. */

/** mulberry32: a small, fast 32-bit PRNG; good enough for shaping test data. */
export function createRng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A deterministic value in [0, 1) for an integer key (e.g. an hour index). */
export function hashUnit(key: number, salt = 0): number {
  return createRng(Math.imul(key ^ 0x9e3779b9, 0x85ebca6b) ^ salt)();
}
