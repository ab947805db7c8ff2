import { describe, expect, it } from "vitest";
import { R1, R2, R3, R4 } from "./hedge-ledger.fixture.js";
import { netUsd, signedFundingUsd, sumLedger, usd } from "./hedge-ledger-sums.js";

describe("rule 1: netUsd = fundingUsd + closedPnlUsd − feesUsd", () => {
  it("adds funding and closed PnL and subtracts fees", () => {
    expect(netUsd(2.35, 110, 17)).toBeCloseTo(95.35, 10);
    expect(netUsd(-0.3, -40, 13)).toBeCloseTo(-53.3, 10);
  });
});

describe("rule 2: fundingUsd is the signed sum, never clamped", () => {
  it("lets a payment the account made subtract", () => {
    // +0.3 received, −0.6 paid: −0.3, not 0.9 (absolute) and not 0.3 (negative clamped to 0)
    expect(signedFundingUsd([R1, R2])).toBeCloseTo(-0.3, 12);
    expect(sumLedger([R1, R2], []).fundingUsd).toBe(-0.3);
  });
  it("keeps a negative total negative", () => {
    expect(sumLedger([R2], []).fundingUsd).toBe(-0.6);
    expect(sumLedger([R2], []).netUsd).toBe(-0.6);
  });
  it("takes delta.usdc as the account sees it: positive is received (the short earns when the rate is positive)", () => {
    expect(signedFundingUsd([R1, R3, R4])).toBeCloseTo(2.95, 12);
  });
});

describe("the published figures", () => {
  it("are rounded to the venue's 6 decimals, with −0 folded to 0", () => {
    expect(usd(0.1 + 0.2)).toBe(0.3);
    expect(usd(1.0000004)).toBe(1);
    expect(usd(1.0000005)).toBe(1.000001);
    expect(Object.is(usd(-0.0000001), 0)).toBe(true);
  });
  it("count the records summed", () => {
    expect(sumLedger([], [])).toEqual({
      fundingUsd: 0,
      feesUsd: 0,
      closedPnlUsd: 0,
      netUsd: 0,
      fundingEvents: 0,
      fills: 0,
    });
    expect(sumLedger([R1, R2, R3], []).fundingEvents).toBe(3);
  });
});
