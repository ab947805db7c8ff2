import { describe, expect, it } from "vitest";
import { realizedApy } from "./realized-apy.js";

describe("realizedApy", () => {
  it("annualises share-price growth over the days between two reads", () => {
    // 0.1 % over 7 days → 0.001 × 365 / 7
    expect(realizedApy({ t: 0, assets: 10n ** 18n }, { t: 7 * 86_400, assets: 1_001n * 10n ** 15n })).toBeCloseTo(0.001 * (365 / 7), 12);
  });
  it("is null over no elapsed time or from a zero share price", () => {
    expect(realizedApy({ t: 5, assets: 10n ** 18n }, { t: 5, assets: 10n ** 18n })).toBeNull();
    expect(realizedApy({ t: 0, assets: 0n }, { t: 86_400, assets: 10n ** 18n })).toBeNull();
  });
});
