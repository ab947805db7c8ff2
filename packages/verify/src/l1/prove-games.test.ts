import type { PublicClient } from "viem";
import { describe, expect, it } from "vitest";
import { hintFirstIndexAtOrAfter } from "./prove-games.js";

const system = {
  disputeGameFactory: "0x000000000000000000000000000000000000f0",
  anchorStateRegistry: "0x000000000000000000000000000000000000f1",
  gameType: 621,
} as const;

/** A factory whose game i claims `blocks[i]` (-1: a game of another type), answering readContract. */
function factory(blocks: number[]) {
  let calls = 0;
  const client = {
    async readContract(r: { functionName: string; args?: readonly bigint[]; address: string }) {
      calls++;
      if (r.functionName === "gameAtIndex") {
        const i = Number(r.args![0]);
        return [blocks[i]! < 0 ? 1 : 621, 0n, `0x${i.toString(16).padStart(40, "0")}`];
      }
      return BigInt(blocks[Number.parseInt(r.address.slice(2), 16)]!);
    },
  } as unknown as PublicClient;
  return { client, calls: () => calls };
}

describe("hintFirstIndexAtOrAfter: the first game claiming the block or a later one", () => {
  const blocks = [-1, -1, -1, ...Array.from({ length: 15_000 }, (_, i) => 46_303_560 + 600 * i)];
  it.each([
    [46_303_560, 3],
    [46_303_561, 4],
    [46_303_000, 3],
    [46_303_560 + 600 * 9_999 - 7, 3 + 9_999],
    [46_303_560 + 600 * 14_999, 3 + 14_999],
    [46_303_560 + 600 * 14_999 + 1, blocks.length],
  ])("block %i: index %i, in a few rounds of 16 probes", async (block, index) => {
    const f = factory(blocks);
    expect(await hintFirstIndexAtOrAfter(f.client, system, 1n, blocks.length, BigInt(block))).toBe(index);
    // Each round: 16 list entries and 16 games; 15,003 games take at most 4 rounds.
    expect(f.calls()).toBeLessThanOrEqual(4 * 32);
  });

  it("an empty list: index 0", async () => {
    expect(await hintFirstIndexAtOrAfter(factory([]).client, system, 1n, 0, 5n)).toBe(0);
  });
});
