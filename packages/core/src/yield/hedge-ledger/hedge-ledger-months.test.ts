import { describe, expect, it } from "vitest";
import { FILLS, FUNDING, t, UNTIL } from "./hedge-ledger.fixture.js";
import { LEDGER_SINCE_MS } from "./hedge-ledger.js";
import { bucketByMonth, inWindow, monthKey, monthKeys } from "./hedge-ledger-months.js";

describe("rule 3: UTC months since 2026-05-14", () => {
  it("lists every month from May 2026 through the window's end, empty ones included", () => {
    expect(monthKeys(LEDGER_SINCE_MS, UNTIL)).toEqual(["2026-05", "2026-06", "2026-07", "2026-08"]);
    expect(monthKeys(LEDGER_SINCE_MS, t("2027-01-01T00:00:00Z"))).toEqual([
      "2026-05",
      "2026-06",
      "2026-07",
      "2026-08",
      "2026-09",
      "2026-10",
      "2026-11",
      "2026-12",
      "2027-01",
    ]);
    expect(monthKeys(LEDGER_SINCE_MS, LEDGER_SINCE_MS)).toEqual(["2026-05"]);
  });
  it("lists no month for a window that ends before it starts", () => {
    expect(monthKeys(LEDGER_SINCE_MS, LEDGER_SINCE_MS - 1)).toEqual([]);
  });
  it("takes the month in UTC, whatever the local time zone", () => {
    expect(monthKey(t("2026-05-31T23:59:59.999Z"))).toBe("2026-05");
    expect(monthKey(t("2026-06-01T00:00:00.000Z"))).toBe("2026-06");
  });
  it("puts each record in the UTC month of its own time and drops what precedes the start", () => {
    const months = bucketByMonth(FUNDING, FILLS, LEDGER_SINCE_MS, UNTIL);
    expect(months).toEqual([
      { month: "2026-05", fundingUsd: -0.3, feesUsd: 13, closedPnlUsd: -40, netUsd: -53.3, fundingEvents: 2, fills: 2 },
      {
        month: "2026-06",
        fundingUsd: 2.65,
        feesUsd: 3,
        closedPnlUsd: -100,
        netUsd: -100.35,
        fundingEvents: 2,
        fills: 1,
      },
      { month: "2026-07", fundingUsd: 0, feesUsd: 1, closedPnlUsd: 250, netUsd: 249, fundingEvents: 1, fills: 1 },
      { month: "2026-08", fundingUsd: 0, feesUsd: 0, closedPnlUsd: 0, netUsd: 0, fundingEvents: 0, fills: 0 },
    ]);
  });
  it("drops what comes after the window's end (inclusive at both ends, like the venue)", () => {
    const months = bucketByMonth(FUNDING, FILLS, LEDGER_SINCE_MS, t("2026-06-01T00:00:00.000Z"));
    expect(months.map((m) => [m.month, m.fills, m.fundingEvents])).toEqual([
      ["2026-05", 2, 2],
      ["2026-06", 1, 0],
    ]);
    const edge = t("2026-06-01T00:00:00.000Z");
    expect(inWindow(FILLS, edge, edge).map((f) => f.tid)).toEqual([3]);
  });
});
