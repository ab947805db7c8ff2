import { describe, expect, it } from "vitest";
import { LedgerMonthSchema, LedgerTotalsSchema, VenueReadStatusSchema } from "./hedge-ledger-schema.js";

const sums = { fundingUsd: 1, feesUsd: 0.5, closedPnlUsd: 0, netUsd: 0.5, fundingEvents: 2, fills: 1 };

describe("the hedge ledger's parts of the published shape", () => {
  it("a month is a UTC YYYY-MM with its sums, none of them null", () => {
    expect(LedgerMonthSchema.safeParse({ month: "2026-05", ...sums }).success).toBe(true);
    expect(LedgerMonthSchema.safeParse({ month: "2026-5", ...sums }).success).toBe(false);
    expect(LedgerMonthSchema.safeParse({ month: "2026-05", ...sums, fundingUsd: null }).success).toBe(false);
    expect(LedgerMonthSchema.safeParse({ month: "2026-05", ...sums, fills: 1.5 }).success).toBe(false);
  });

  it("totals are the sums, or all null when the venue could not be read", () => {
    expect(LedgerTotalsSchema.safeParse(sums).success).toBe(true);
    expect(LedgerTotalsSchema.safeParse(Object.fromEntries(Object.keys(sums).map((k) => [k, null]))).success).toBe(
      true,
    );
    expect(LedgerTotalsSchema.safeParse({ ...sums, profitUsd: 1 }).success).toBe(false);
  });

  it("the venue read is either its pages or why it failed", () => {
    expect(VenueReadStatusSchema.safeParse({ ok: true, pages: { userFunding: 1, userFills: 2 } }).success).toBe(true);
    expect(
      VenueReadStatusSchema.safeParse({ ok: false, reason: "venue answered 500", status: 500, request: "userFunding" })
        .success,
    ).toBe(true);
    expect(VenueReadStatusSchema.safeParse({ ok: false, reason: "no venue URL is configured" }).success).toBe(true);
    expect(VenueReadStatusSchema.safeParse({ ok: false }).success).toBe(false);
    expect(
      VenueReadStatusSchema.safeParse({ ok: true, pages: { userFunding: 1, userFills: 2 }, reason: "x" }).success,
    ).toBe(false);
  });
});
