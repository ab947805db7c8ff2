import type { PublicClient } from "viem";
import { describe, expect, it } from "vitest";
import { HeaderTimes, registryTimes } from "./header-times.js";

/** Blocks 0..999, block b at 1000 + 2b seconds (two blocks a second apart share a time every 7th block). */
const timeOf = (b: bigint) => 1_000 + 2 * Number(b) - (b % 7n === 0n && b > 0n ? 2 : 0);
const client = {
  getBlock: async ({ blockNumber }: { blockNumber: bigint }) => ({ timestamp: BigInt(timeOf(blockNumber)) }),
} as unknown as PublicClient;

describe("registryTimes", () => {
  it("selects for each block the latest issued_at its own time has reached, from a few headers", async () => {
    const times = new HeaderTimes(client);
    const issued = [900, 1_401, 1_400, 5_000];
    const at = await registryTimes(times, issued, 0n, 999n);
    for (let b = 0n; b < 1_000n; b++) {
      const reached = issued.filter((t) => t <= timeOf(b));
      expect(at(b), `block ${b}`).toBe(reached.length ? Math.max(...reached) : Number.NEGATIVE_INFINITY);
    }
    expect(times.calls).toBeLessThan(40);
  });
});
