import { describe, expect, it } from "vitest";
import { BEFORE, FUNDING, R1, R2, R3, R4, R5, rec } from "./hedge-ledger.fixture.js";
import {
  annualisedOnNotional,
  buildDenominator,
  DENOMINATOR_BASIS,
  notionalHoursPerRecord,
  recordHours,
} from "./hedge-ledger-denominator.js";
import { LedgerDenominatorSchema } from "./hedge-ledger-schema.js";

describe("rule 4: annualisedOnNotional = fundingUsd / notionalHoursUsd × 8760", () => {
  it("is a fraction per year", () => {
    // 2.35 / 400000 × 8760 = 0.051465
    expect(annualisedOnNotional(2.35, 400_000)).toBeCloseTo(0.051465, 12);
    expect(buildDenominator(FUNDING.filter((r) => r !== BEFORE)).annualisedOnNotional).toBeCloseTo(0.051465, 10);
  });
  it("is negative when funding was paid on net", () => {
    // −0.3 over 60000 notional-hours: −0.3 / 60000 × 8760 = −0.0438
    expect(buildDenominator([R1, R2]).annualisedOnNotional).toBeCloseTo(-0.0438, 10);
  });
  it("is null, not zero or infinite, without notional", () => {
    expect(annualisedOnNotional(0, 0)).toBeNull();
    expect(annualisedOnNotional(1, null)).toBeNull();
    expect(buildDenominator([]).annualisedOnNotional).toBeNull();
  });
});

describe("rule 5: positionHours from per-record sample counts", () => {
  it("counts a record without nSamples as one hour and an aggregated record as its samples", () => {
    expect(recordHours(R1)).toBe(1);
    expect(recordHours(R3)).toBe(8);
  });
  it("sums the hours, not the records, and derives notional-hours from usdc / rate", () => {
    const d = buildDenominator([R1, R2, R3, R4, R5]);
    expect(d.fundingRecords).toBe(5);
    expect(d.positionHours).toBe(12); // 1 + 1 + 8 + 1 + 1, not 5
    // 30000 + 30000 + 240000 (|2.4 / 0.00001| = 10 × 3000 × 8) + 50000 + 50000 (zero rate: 20 × 2500 × 1)
    expect(d.notionalHoursUsd).toBe(400_000);
    expect(d.timeWeightedNotionalUsd).toBeCloseTo(400_000 / 12, 6);
    expect(d.zeroRateRecords).toBe(1);
  });
  it("an 8-hour aggregated record is 8 hours at the same notional, not 8 × 8", () => {
    const d = buildDenominator([R3]);
    expect(d.positionHours).toBe(8);
    expect(d.notionalHoursUsd).toBe(240_000);
    expect(d.timeWeightedNotionalUsd).toBe(30_000);
  });
  it("prices a zero-rate record from the nearest later record when none precedes it", () => {
    // R5's 20 ETH for one hour at R1's implied 3000 (0.3 / (0.00001 × 1 × 10))
    const d = buildDenominator([rec("2026-05-20T09:00:00Z", 0, -20, 0), R1]);
    expect(d.notionalHoursUsd).toBe(60_000 + 30_000);
    expect(d.positionHours).toBe(2);
    expect(d.zeroRateRecords).toBe(1);
  });
  it("treats a payment that rounds to zero like a zero rate (no divide-by-zero, no zero notional)", () => {
    const d = buildDenominator([R1, rec("2026-05-20T11:00:00Z", 0, -10, 1e-10)]);
    expect(d.notionalHoursUsd).toBe(60_000);
    expect(d.zeroRateRecords).toBe(1);
  });
  it("leaves notional unknown when no record implies a price", () => {
    const d = buildDenominator([R5]);
    expect(d.positionHours).toBe(1);
    expect(d.notionalHoursUsd).toBeNull();
    expect(d.timeWeightedNotionalUsd).toBeNull();
    expect(d.annualisedOnNotional).toBeNull();
    expect(d.zeroRateRecords).toBe(1);
  });
});

describe("the denominator block", () => {
  it("values each record in time order, a flat record at zero", () => {
    const [r4, r5, flat] = notionalHoursPerRecord([R4, R5, rec("2026-07-01T01:00:00Z", 0, 0, 0)]);
    expect(r4).toBeCloseTo(50_000, 6); // |0.25 / 0.000005|: 20 ETH × 2500 for one hour
    expect(r5).toBeCloseTo(50_000, 6); // zero rate: 20 ETH × R4's 2500
    expect(flat).toBe(0);
  });
  it("orders the records by time itself, and fits its schema", () => {
    const d = buildDenominator([R5, R4]);
    expect(d.notionalHoursUsd).toBe(100_000);
    expect(d.basis).toBe(DENOMINATOR_BASIS);
    expect(LedgerDenominatorSchema.parse(d)).toEqual(d);
  });
});
