import { describe, expect, it } from "vitest";
import { basePins } from "../reports/pins.js";
import { buildViolationPage, type ViolationRow, violationsInWindow, windowOfPins } from "./violation-view.js";

const row = (block: number, logIndex: number): ViolationRow => ({
  id: `${block}:${logIndex}`,
  token: "0x00000000000000000000000000000000000000c1",
  tokenSymbol: "USDC",
  from: "0x00000000000000000000000000000000000000a1",
  to: "0x00000000000000000000000000000000000000b1",
  amount: 1_500_000n,
  registryVersion: 1,
  txHash: `0x${"1".repeat(64)}`,
  blockNumber: BigInt(block),
  timestamp: 1_700_000_000n,
  logIndex,
});
const all = [row(30, 2), row(10, 5), row(20, 0), row(10, 1), row(40, 0)];
const pins = basePins({
  report: "violations",
  network: { chainId: 8453, documentSha256: `0x${"ab".repeat(32)}` },
  block: { number: 50, hash: `0x${"cd".repeat(32)}`, timestamp: 1_700_000_100 },
});

describe("a page of violations", () => {
  it("is the window of the whole list after its cursor, within its blocks, at most its limit, in chain order", () => {
    const w = { after: { block: 10n, logIndex: 1 }, fromBlock: 0n, toBlock: 35n, limit: 2 };
    expect(violationsInWindow(all, w).map((v) => v.id)).toEqual(["10:5", "20:0"]);
    expect(violationsInWindow(all, { ...w, after: null, fromBlock: 15n, limit: 10 }).map((v) => v.id)).toEqual([
      "20:0",
      "30:2",
    ]);
  });

  it("names the next cursor when full, and pins its window so that a reader cuts the same", () => {
    const w = { after: null, fromBlock: 0n, toBlock: 50n, limit: 2 };
    const page = buildViolationPage({
      indexedHead: { blockNumber: 50n, timestamp: 1_700_000_100 },
      rows: violationsInWindow(all, w),
      window: w,
      pins,
    });
    expect(page.next).toBe("10:5");
    expect(page.pins.window).toEqual({ after: null, fromBlock: 0, toBlock: 50, limit: 2 });
    expect(windowOfPins(page.pins.window)).toEqual(w);
    const last = { ...w, after: { block: 30n, logIndex: 2 } };
    const end = buildViolationPage({
      indexedHead: { blockNumber: 50n, timestamp: 0 },
      rows: violationsInWindow(all, last),
      window: last,
      pins,
    });
    expect(end.violations.map((v) => v.cursor)).toEqual(["40:0"]);
    expect(end.next).toBeNull();
    expect(windowOfPins(end.pins.window).after).toEqual({ block: 30n, logIndex: 2 });
  });
});
