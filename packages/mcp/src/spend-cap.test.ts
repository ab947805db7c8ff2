import { describe, expect, it } from "vitest";
import { SpendCap } from "./spend-cap.js";

const usdc = { decimals: 6, symbol: "USDC" };

describe("SpendCap", () => {
  it("spends what fits, then refuses naming the price, the cap, what is spent and what is left", () => {
    const cap = new SpendCap(300_000n, usdc);
    const first = cap.hold(250_000n, "buy_reserves_attestation");
    expect(first.ok).toBe(true);
    if (first.ok) first.hold.spend();
    expect(cap.paid).toBe(250_000n);
    const second = cap.hold(250_000n, "buy_reserves_attestation");
    expect(second).toEqual({
      ok: false,
      reason:
        "refused: buy_reserves_attestation costs 0.25 USDC, over this session's spend cap of 0.3 USDC (0.25 USDC spent, 0.05 USDC left); nothing was signed or paid. Start kusd-mcp with a higher --max-spend to buy it.",
    });
  });

  it("holds a price while its payment is under way, so two calls cannot share what is left for one", () => {
    const cap = new SpendCap(400_000n, usdc);
    const first = cap.hold(250_000n, "a");
    const second = cap.hold(250_000n, "b");
    expect(first.ok).toBe(true);
    expect(second.ok).toBe(false);
    if (!second.ok) expect(second.reason).toContain("0.25 USDC held for a payment under way");
  });

  it("gives back a released hold; closing a hold twice counts once", () => {
    const cap = new SpendCap(250_000n, usdc);
    const h = cap.hold(250_000n, "a");
    if (!h.ok) throw new Error(h.reason);
    h.hold.release();
    h.hold.spend();
    expect([cap.paid, cap.left]).toEqual([0n, 250_000n]);
  });

  it("a zero cap refuses any price", () => {
    expect(new SpendCap(0n, usdc).hold(1n, "a").ok).toBe(false);
  });
});
