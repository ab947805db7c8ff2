import { describe, expect, it } from "vitest";
import { A, R, snapshot } from "./fixture.js";
import { buildHolder, buildMultisig, HolderSchema, MultisigSchema } from "./holders.js";

describe("reserves.insuranceFund, treasury, multisig", () => {
  it("a holder: its USDC and WETH as read, the USD total it is given", () => {
    const h = buildHolder(snapshot().insuranceFund, "insuranceFund", 12_000);
    expect(HolderSchema.parse(h)).toEqual(h);
    expect(h).toEqual({
      address: A(20),
      usdc: 10_000,
      weth: 1,
      totalUSD: 12_000,
      verifyVia: [expect.stringContaining("insuranceFund.usdc"), expect.stringContaining("insuranceFund.weth")],
    });
  });

  it("multisig threshold is N-of-M from the reads; unknown when a read failed", () => {
    const m = buildMultisig(snapshot().multisig, 1_000);
    expect(MultisigSchema.parse(m)).toEqual(m);
    expect(m).toMatchObject({ address: A(22), usdc: 1_000, weth: 0, totalUSD: 1_000, threshold: "2-of-3" });
    expect(m.verifyVia).toHaveLength(4);
    // Published order: the holder's fields, then threshold last.
    expect(Object.keys(m)).toEqual(["address", "usdc", "weth", "totalUSD", "verifyVia", "threshold"]);
    expect(buildMultisig({ ...snapshot().multisig, owners: null }, 1_000).threshold).toBeNull();
    expect(buildMultisig({ ...snapshot().multisig, threshold: null }, 1_000).threshold).toBeNull();
    expect(
      buildMultisig({ ...snapshot().multisig, threshold: R(3n), owners: R([A(1), A(2), A(3), A(4), A(5)]) }, 1_000)
        .threshold,
    ).toBe("3-of-5");
  });
});
