import { describe, expect, it } from "vitest";
import { annualizedGrowth } from "./apy-formula.js";

describe("annualizedGrowth", () => {
  it("annualises share-price growth over the days between two reads", () => {
    // 0.1 % over 7 days → 0.001 × 365 / 7
    expect(annualizedGrowth({ t: 0, assets: 10n ** 18n }, { t: 7 * 86_400, assets: 1_001n * 10n ** 15n })).toBeCloseTo(
      0.001 * (365 / 7),
      12,
    );
  });
  it("is null over no elapsed time or from a zero share price", () => {
    expect(annualizedGrowth({ t: 5, assets: 10n ** 18n }, { t: 5, assets: 10n ** 18n })).toBeNull();
    expect(annualizedGrowth({ t: 0, assets: 0n }, { t: 86_400, assets: 10n ** 18n })).toBeNull();
  });
});
