import { describe, expect, it } from "vitest";
import type { DoctorFeed } from "./types.js";
import {
  bisectFirstBlock,
  judgeAnchorGas,
  judgeFeed,
  judgeLogRange,
  judgeStartBlock,
  logRangeSpans,
} from "./verdicts.js";

describe("the doctor's verdicts", () => {
  it("bisects to the first block where a monotone predicate holds, in ceil(log2(n)) steps", async () => {
    for (const [head, first] of [
      [0, 0],
      [1, 0],
      [1, 1],
      [1_000, 0],
      [1_000, 1_000],
      [40_000_000, 31_415_926],
    ] as const) {
      let calls = 0;
      const found = await bisectFirstBlock(0, head, async (block) => {
        calls++;
        return block >= first;
      });
      expect(found).toBe(first);
      expect(calls).toBeLessThanOrEqual(Math.ceil(Math.log2(head + 1)));
    }
  });

  it("judges start blocks against the deployment block", () => {
    expect(judgeStartBlock(90, 100)).toEqual({
      result: "ok",
      detail: "start block 90 starts 10 blocks before the deployment",
    });
    expect(judgeStartBlock(100, 100)).toEqual({ result: "ok", detail: "start block 100 is the deployment block" });
    expect(judgeStartBlock(107, 100)).toEqual({
      result: "FAIL",
      detail: "start block 107 would miss the first 7 blocks of history",
    });
  });

  it("judges a feed: every problem at once, a non-positive answer fails, staleness only warns", () => {
    const spec: DoctorFeed = {
      name: "f",
      address: "0x0000000000000000000000000000000000000001",
      expectDescription: "ETH / USD",
      decimals: 8,
      source: "s",
      maxAgeSeconds: 60,
    };
    const good = {
      description: { ok: true, value: "ETH / USD" },
      decimals: { ok: true, value: 8 },
      round: { ok: true, answer: 2n * 10n ** 8n, updatedAt: 1_000 },
    } as const;
    expect(judgeFeed(spec, good, 1_030)).toEqual({
      result: "ok",
      detail: '"ETH / USD", 8 decimals, answer 2, updated 30 s before the head',
    });
    expect(judgeFeed(spec, good, 1_061).result).toBe("warn");
    expect(judgeFeed({ ...spec, maxAgeSeconds: undefined }, good, 99_999).result).toBe("ok");
    expect(judgeFeed(spec, { ...good, round: { ok: true, answer: 0n, updatedAt: 1_000 } }, 1_000)).toMatchObject({
      result: "FAIL",
      detail: expect.stringContaining("answer is 0, not positive"),
    });
    const bad = judgeFeed(
      { ...spec, expectDescription: /^BTC/ },
      { ...good, decimals: { ok: true, value: 18 } },
      1_000,
    );
    expect(bad.result).toBe("FAIL");
    expect(bad.detail).toContain('description() is "ETH / USD", expected /^BTC/');
    expect(bad.detail).toContain("decimals() is 18, expected 8");
  });

  it("names a feed's failed reads, with its address and where it was configured", () => {
    const spec: DoctorFeed = {
      name: "f",
      address: "0x0000000000000000000000000000000000000001",
      expectDescription: "ETH / USD",
      decimals: 8,
      source: "networks/base.json",
    };
    const failed = { ok: false, error: "reverted" } as const;
    expect(judgeFeed(spec, { description: failed, decimals: failed, round: failed }, 1_000)).toEqual({
      result: "FAIL",
      detail:
        "0x0000000000000000000000000000000000000001: description() failed: reverted; decimals() failed: reverted; latestRoundData() failed: reverted [from: networks/base.json]",
    });
  });

  it("probes each distinct span once, widest first, the configured one included", () => {
    expect(logRangeSpans(null, 50_000_000)).toEqual([100_000, 10_000, 2_000, 1_000, 500, 100]);
    expect(logRangeSpans(5_000, 50_000_000)).toEqual([100_000, 10_000, 5_000, 2_000, 1_000, 500, 100]);
    expect(logRangeSpans(2_000, 1_200)).toEqual([1_200, 1_000, 500, 100]);
  });

  it("judges the eth_getLogs range against the configured one", () => {
    const probe = { accepted: 2_000, chainLength: 50_000_000, rejected: [{ span: 10_000, reason: "too wide" }] };
    expect(judgeLogRange(null, probe).result).toBe("ok");
    expect(judgeLogRange(2_000, probe).result).toBe("ok");
    expect(judgeLogRange(5_000, { ...probe, rejected: [{ span: 5_000, reason: "too wide" }] })).toEqual({
      result: "FAIL",
      detail: "configured 5000 > largest accepted range 2000 blocks, refused (5000 blocks: too wide)",
    });
    expect(judgeLogRange(null, { accepted: null, chainLength: 9, rejected: [{ span: 9, reason: "no" }] }).result).toBe(
      "FAIL",
    );
    // A devnet shorter than the configured range cannot show whether the range works.
    expect(judgeLogRange(2_000, { accepted: 30, chainLength: 30, rejected: [] }).result).toBe("warn");
  });
});

describe("gas for anchoring statements", () => {
  const perAnchor = 250_000n * 10_000_000n; // 250k gas at 0.01 gwei
  it("no ETH fails; a few weeks' worth or less warns; more is ok", () => {
    expect(judgeAnchorGas(0n, perAnchor).result).toBe("FAIL");
    expect(judgeAnchorGas(perAnchor * 100n, perAnchor)).toMatchObject({
      result: "warn",
      detail: expect.stringContaining("about 100 hourly anchors"),
    });
    expect(judgeAnchorGas(perAnchor * 10_000n, perAnchor).result).toBe("ok");
  });
});
