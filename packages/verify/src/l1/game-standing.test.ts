import { keccak256, toHex } from "viem";
import { describe, expect, it } from "vitest";
import { coveringRoot, gameStanding, type ProvenGame } from "./game-standing.js";

const root = (i: number) => keccak256(toHex(`root ${i}`));

/** A Base-shaped game: 600 blocks, a root every 30, resolved and valid. */
function game(over: Partial<ProvenGame> = {}, registry: Partial<ProvenGame["registry"]> = {}): ProvenGame {
  const roots = Array.from({ length: 20 }, (_, i) => root(i));
  return {
    address: "0x00000000000000000000000000000000000000aa",
    index: 7,
    gameType: 621,
    rootClaim: roots[19]!,
    startingBlock: 46_302_960n,
    l2SequenceNumber: 46_303_560n,
    blockInterval: 600n,
    intermediateBlockInterval: 30n,
    intermediateRoots: roots,
    status: 2,
    createdAt: 1_780_000_000n,
    resolvedAt: 1_780_432_000n,
    expectedResolution: 1_780_432_000n,
    proofCount: 1,
    counteredIndexPlusOne: 0n,
    ...over,
    registry: {
      registered: true,
      respected: true,
      blacklisted: false,
      retired: false,
      finalized: true,
      claimValid: true,
      finalityDelaySeconds: 0n,
      ...registry,
    },
  };
}

describe("coveringRoot: the first intermediate root at or after the block", () => {
  it("picks root i for blocks start + 30i + 1 … start + 30(i + 1)", () => {
    const g = game();
    expect(coveringRoot(g, 46_302_961n)).toEqual({ index: 0, block: 46_302_990n, root: root(0) });
    expect(coveringRoot(g, 46_302_990n)).toEqual({ index: 0, block: 46_302_990n, root: root(0) });
    expect(coveringRoot(g, 46_302_991n)).toEqual({ index: 1, block: 46_303_020n, root: root(1) });
    expect(coveringRoot(g, 46_303_560n)).toEqual({ index: 19, block: 46_303_560n, root: root(19) });
  });

  it("covers nothing outside the game's range: its starting block is its parent's", () => {
    expect(coveringRoot(game(), 46_302_960n)).toBeNull();
    expect(coveringRoot(game(), 46_303_561n)).toBeNull();
  });
});

describe("gameStanding", () => {
  it("final: resolved DEFENDER_WINS and the registry counts the claim valid", () => {
    expect(gameStanding(game())).toMatchObject({ kind: "final" });
  });

  it("resolved but within the finality delay: final one second after resolvedAt + delay", () => {
    const s = gameStanding(game({}, { finalized: false, claimValid: false, finalityDelaySeconds: 3_600n }));
    expect(s).toMatchObject({ kind: "resolved", finalAt: 1_780_432_000n + 3_601n });
  });

  it("in progress: says when it resolves and on what it rests until then", () => {
    const s = gameStanding(game({ status: 0, resolvedAt: 0n }, { finalized: false, claimValid: false }));
    expect(s.kind).toBe("in-progress");
    expect(s.detail).toContain("resolves at 2026-06-02T20:26:40Z unless challenged");
  });

  it.each([
    ["lost", { status: 1 }, {}, "lost: resolved CHALLENGER_WINS"],
    ["challenged", { status: 0, counteredIndexPlusOne: 4n }, {}, "countered its intermediate root 3"],
    ["blacklisted", {}, { blacklisted: true, claimValid: false }, "blacklisted"],
    ["retired", {}, { retired: true, claimValid: false }, "retired"],
    ["not the factory's", {}, { registered: false, claimValid: false }, "not registered"],
    ["not respected", {}, { respected: false, claimValid: false }, "respected game type"],
    ["malformed: wrong count", { intermediateRoots: [root(0)] }, {}, "carries 1 intermediate roots, not 20"],
    ["malformed: last root", { rootClaim: root(99) }, {}, "last intermediate root is not its root claim"],
    ["malformed: range", { l2SequenceNumber: 46_303_561n }, {}, "is not its parent's"],
  ] as const)("invalid when %s", (_, over, registry, why) => {
    const s = gameStanding(game(over as Partial<ProvenGame>, registry));
    expect(s.kind).toBe("invalid");
    expect(s.detail).toContain(why);
  });
});
