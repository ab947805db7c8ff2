import { describe, expect, it } from "vitest";
import { bracketEquity, type PortfolioWindow } from "./portfolio.js";

const windows: PortfolioWindow[] = [
  {
    name: "perpDay",
    samples: [
      { time: 1_000, value: 100 },
      { time: 2_000, value: 110 },
    ],
  },
  {
    name: "perpAllTime",
    samples: [
      { time: 0, value: 50 },
      { time: 2_000, value: 110 },
    ],
  },
];

describe("bracketEquity", () => {
  it("inside the finest window's samples around the time", () => {
    const b = bracketEquity(windows, 1_500, 105, 0, null);
    expect(b).toMatchObject({ inside: true, window: "perpDay", low: 100, high: 110 });
  });

  it("outside by more than the tolerance", () => {
    expect(bracketEquity(windows, 1_500, 112, 0.01, null).inside).toBe(false);
    expect(bracketEquity(windows, 1_500, 111, 0.01, null).inside).toBe(true);
  });

  it("a time before the finest window falls to a coarser one", () => {
    expect(bracketEquity(windows, 500, 80, 0, null)).toMatchObject({ inside: true, window: "perpAllTime" });
  });

  it("after the newest sample, the value now closes the bracket; before every sample, nothing covers it", () => {
    expect(bracketEquity(windows, 2_500, 115, 0, { time: 3_000, value: 120 })).toMatchObject({ inside: true });
    expect(bracketEquity(windows, -1, 50, 0, null).inside).toBeNull();
  });
});
