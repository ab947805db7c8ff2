import { describe, expect, it } from "vitest";
import { withExactAmounts } from "./exact-amounts.js";

describe("amounts in alert bodies", () => {
  it("a one-wei violation is 0.000000000000001 kUSD-style text, not the float 1e-15", () => {
    const item = { id: "v", blockNumber: 1, amount: 1e-15, amountRaw: "1000", decimals: 18, tokenSymbol: "WETH" };
    const out = withExactAmounts(item);
    expect(out.amount).toBe("0.000000000000001");
    expect(out.amountRaw).toBe("1000");
    expect(JSON.stringify(out)).toContain('"amount":"0.000000000000001"');
  });

  it("an 18-decimal amount a float would round stays exact; USDC in 6 decimals", () => {
    const out = withExactAmounts({
      id: "r",
      blockNumber: 2,
      kusdRedeemed: 100286.941,
      kusdRedeemedRaw: "100286941000000000000003",
      usdcPaidOut: 100236.8,
      usdcPaidOutRaw: "100236800000",
    });
    expect(out.kusdRedeemed).toBe("100286.941000000000000003");
    expect(out.usdcPaidOut).toBe("100236.8");
  });

  it("an item without raw figures (an older API) is left as it came", () => {
    const item = { id: "r", blockNumber: 2, kusdRedeemed: 5, usdcPaidOut: 5 };
    expect(withExactAmounts(item)).toEqual(item);
  });
});
