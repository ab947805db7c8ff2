import { describe, expect, it } from "vitest";
import { changedAt, riskItems, stepRisk } from "./risk-watch.js";

const status = (block: number, unsafe: string[], gaps: string[] = []) => ({
  blockNumber: block,
  triggers: {
    onChain: [
      { id: "psm.paused", safe: !unsafe.includes("psm.paused") },
      { id: "psm.solvencyCheckDisabled", safe: !unsafe.includes("psm.solvencyCheckDisabled") },
      { id: "psm.cap", safe: null },
    ],
    offChain: [],
  },
  gaps: gaps.map((id) => ({ id })),
});

describe("stepRisk", () => {
  it("takes what is already out of its safe state at the first poll as its baseline", async () => {
    const first = await stepRisk(
      undefined,
      status(10, ["psm.solvencyCheckDisabled"], ["kUSD.BURNER_ROLE"]),
      0,
      async () => status(10, []),
    );
    expect(first.messages).toEqual([]);
    expect(Object.keys(first.next).sort()).toEqual(["gap:kUSD.BURNER_ROLE", "trigger:psm.solvencyCheckDisabled"]);
  });

  it("alerts a trigger leaving its safe state and a new gap, once", async () => {
    const { next } = await stepRisk(undefined, status(10, []), 0, async () => status(10, []));
    const a = await stepRisk(next, status(12, ["psm.paused"], ["vault.depositsEnabled"]), 0, async () =>
      status(12, []),
    );
    expect(a.messages.map((m) => [m.type, m.kind, m.id])).toEqual([
      ["alert", "trigger", "psm.paused@12"],
      ["alert", "gap", "vault.depositsEnabled@12"],
    ]);
    expect(
      (await stepRisk(a.next, status(13, ["psm.paused"], ["vault.depositsEnabled"]), 0, async () => status(13, [])))
        .messages,
    ).toEqual([]);
  });

  it("resolves what ended later, and retracts what a reorg removed from the block it was seen at", async () => {
    const { next } = await stepRisk(undefined, status(10, []), 0, async () => status(10, []));
    const a = await stepRisk(next, status(12, ["psm.paused", "psm.solvencyCheckDisabled"]), 0, async () =>
      status(12, []),
    );
    // At 12 (re-read now) the pause is still there but the solvency flag is gone: a reorg removed it.
    const b = await stepRisk(a.next, status(15, []), 0, async (block) =>
      block === 12 ? status(12, ["psm.paused"]) : status(block, []),
    );
    expect(b.messages.map((m) => [m.type, m.id])).toEqual([
      ["resolved", "psm.paused@12"],
      ["retraction", "psm.solvencyCheckDisabled@12"],
    ]);
    // Past the reorg window the block is final: an end is a resolution without a re-read.
    const c = await stepRisk(a.next, status(200, []), 100, async () => {
      throw new Error("no re-read past the window");
    });
    expect(c.messages.map((m) => m.type)).toEqual(["resolved", "resolved"]);
  });

  it("off-chain triggers and triggers without a safe state are not items", () => {
    expect([
      ...riskItems({
        ...status(1, []),
        triggers: { onChain: [{ id: "x", safe: null }], offChain: [{ id: "venue.reachable", safe: false }] },
      }).keys(),
    ]).toEqual([]);
  });

  it("dates an alert by bisecting the blocks since the previous poll: the block of the change, in about log2 reads", async () => {
    // psm.paused switched at block 37; the previous poll was at 10, this one at 100.
    const reads: number[] = [];
    const at = async (block: number) => {
      reads.push(block);
      return status(block, block >= 37 ? ["psm.paused"] : []);
    };
    const { next } = await stepRisk(undefined, status(10, []), 0, at);
    const a = await stepRisk(next, status(100, ["psm.paused"]), 0, at, 10);
    expect(a.messages[0]).toMatchObject({
      type: "alert",
      id: "psm.paused@100",
      observedAtBlock: 100,
      changedAtBlock: 37,
    });
    expect(reads.length).toBeLessThanOrEqual(Math.ceil(Math.log2(90)));
    // Without a previous poll to bound it, the block of the change is unknown, not guessed.
    const b = await stepRisk(next, status(100, ["psm.paused"]), 0, at, null);
    expect(b.messages[0]!.changedAtBlock).toBeNull();
  });

  it("changedAt: the first block after the last one without it; adjacent blocks need no read", async () => {
    expect(
      await changedAt("trigger:psm.paused", 41, 42, async () => {
        throw new Error("no read needed");
      }),
    ).toBe(42);
    expect(await changedAt("gap:g", 0, 8, async (block) => status(block, [], block >= 3 ? ["g"] : []))).toBe(3);
  });
});
