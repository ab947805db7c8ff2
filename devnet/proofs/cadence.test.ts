import { describe, expect, it } from "vitest";
import { checkpointBlocks, dueProposal } from "./cadence.js";
import { DEVNET_PROOF_PARAMS } from "./params.js";

const devnet = DEVNET_PROOF_PARAMS;
const base = { blockInterval: 600, intermediateBlockInterval: 30 };

describe("the proposal cadence", () => {
  it("puts a game 60 blocks after its parent on the devnet, with a root every 3 blocks", () => {
    const blocks = checkpointBlocks(120n, devnet);
    expect(blocks).toHaveLength(20);
    expect(blocks[0]).toBe(123n);
    expect(blocks.at(-1)).toBe(180n);
    expect(blocks.every((b, i) => i === 0 || b - blocks[i - 1]! === 3n)).toBe(true);
  });

  it("carries as many roots per game as Base's 600 / 30", () => {
    expect(checkpointBlocks(46_302_960n, base)).toHaveLength(checkpointBlocks(0n, devnet).length);
    expect(checkpointBlocks(46_302_960n, base).at(-1)).toBe(46_303_560n);
  });

  it("proposes once the head reaches the next block, not before", () => {
    expect(dueProposal(120n, 179n, devnet)).toBeNull();
    expect(dueProposal(120n, 180n, devnet)).toBe(180n);
    expect(dueProposal(120n, 500n, devnet)).toBe(180n);
  });

  it("refuses an interval that the intermediate interval does not divide", () => {
    expect(() => checkpointBlocks(0n, { blockInterval: 60, intermediateBlockInterval: 7 })).toThrow(/multiple/);
  });
});
