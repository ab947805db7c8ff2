import { describe, expect, it } from "vitest";
import { createCandidateTxs } from "./candidate-txs.js";

const BASE = 8453;
const TX_A = "0xAAAA";
const TX_B = "0xbbbb";

describe("createCandidateTxs", () => {
  it("asks the store for every transaction of the first block this process handles", () => {
    const txs = createCandidateTxs();
    // A restart may resume mid-block: the earlier process may have recorded a candidate here.
    expect(txs.mayHold(BASE, 100n, TX_A)).toBe(true);
    expect(txs.mayHold(BASE, 100n, TX_B)).toBe(true);
    expect(txs.mayHold(BASE, 101n, TX_A)).toBe(false);
  });

  it("after the first block, asks only for a transaction that recorded a candidate in this block", () => {
    const txs = createCandidateTxs();
    txs.recorded(BASE, 100n, TX_B);
    txs.recorded(BASE, 101n, TX_A);
    expect(txs.mayHold(BASE, 101n, "0xaaaa")).toBe(true);
    expect(txs.mayHold(BASE, 101n, TX_B)).toBe(false);
    expect(txs.mayHold(BASE, 102n, TX_A)).toBe(false);
  });

  it("forgets a block once another is recorded (a transaction never spans blocks)", () => {
    const txs = createCandidateTxs();
    txs.recorded(BASE, 100n, TX_A);
    txs.recorded(BASE, 101n, TX_A);
    txs.recorded(BASE, 102n, TX_B);
    expect(txs.mayHold(BASE, 102n, TX_A)).toBe(false);
    expect(txs.mayHold(BASE, 102n, TX_B)).toBe(true);
  });

  it("a block handled again after a reorg re-records its candidates before they are asked", () => {
    const txs = createCandidateTxs();
    txs.recorded(BASE, 100n, TX_A);
    txs.recorded(BASE, 103n, TX_A);
    // Reorg back to 101: block 102 handled again, its transaction recorded anew.
    txs.recorded(BASE, 102n, TX_B);
    expect(txs.mayHold(BASE, 102n, TX_B)).toBe(true);
    expect(txs.mayHold(BASE, 102n, TX_A)).toBe(false);
  });

  it("keeps each chain apart", () => {
    const txs = createCandidateTxs();
    txs.recorded(BASE, 100n, TX_A);
    txs.recorded(BASE, 101n, TX_A);
    // The first block handled on chain 1 is always asked, whatever base recorded.
    expect(txs.mayHold(1, 101n, TX_B)).toBe(true);
    expect(txs.mayHold(1, 102n, TX_A)).toBe(false);
  });
});
