import { describe, expect, it } from "vitest";
import { A, EXTERNAL, FOUNDER, snapshot } from "./fixture.js";
import { computePorFigures, type ListedAccount } from "./por-figures.js";
import type { ChainSnapshot } from "./snapshot.js";
import {
  buildStakedVault,
  buildStakedVaultDeprecated,
  StakedVaultDeprecatedSchema,
  StakedVaultSchema,
} from "./staking-vaults.js";

const EOA: ListedAccount[] = [{ address: FOUNDER, kind: "eoa", role: "venue_margin" }];
const live = (s: ChainSnapshot, listed = EOA) => buildStakedVault(s.skUSD, computePorFigures(s, 20_000, listed), A(40));

describe("reserves.stakedVault (skUSD)", () => {
  it("400,000 kUSD over 390,000 shares; the founder owns 300,000 of them", () => {
    const v = live(snapshot());
    expect(StakedVaultSchema.parse(v)).toEqual(v);
    expect(v).toMatchObject({
      address: A(12),
      totalAssetsKUSD: 400_000,
      totalAssetsWei: "400000000000000000000000",
      shareDecimals: 24,
      totalSupplyShares: 390_000,
      convertToAssetsOneShare: 1,
      tvlUSD: 400_000,
      countedInSolvency: false,
    });
    expect(v.pricePerShare).toBeCloseTo(400_000 / 390_000, 12);
    // 300,000 / 390,000 = 10/13; 400,000 kUSD · 10/13 = 307,692.307692…
    expect(v.ownership).toMatchObject({
      founderOwnedShares: 300_000,
      founderOwnedFraction: 0.76923077,
      founderOwnedUSD: 307_692.307692,
    });
    // Four vault reads and the founder's balance.
    expect(v.verifyVia).toHaveLength(5);
  });

  it("a listed contract is not the founder's wallet: no founder shares and no command for it", () => {
    const v = live(snapshot(), [{ address: FOUNDER, kind: "contract", role: "x" }]);
    expect(v.ownership).toMatchObject({ founderOwnedShares: 0, founderOwnedFraction: 0, founderOwnedUSD: 0 });
    expect(v.verifyVia).toHaveLength(4);
  });

  it("share decimals unread: share amounts unknown, never assumed 18", () => {
    const s = snapshot();
    s.skUSD = { ...s.skUSD, shareDecimals: null };
    const v = live(s);
    expect(v).toMatchObject({ shareDecimals: null, totalSupplyShares: null, pricePerShare: null });
    expect(v.ownership).toMatchObject({ founderOwnedShares: null, founderOwnedFraction: 0.76923077 });
  });
});

describe("reserves.stakedVaultDeprecated", () => {
  it("superseded vault: raw share units, external = supply − listed, orphan = assets − redeemable", () => {
    const v = buildStakedVaultDeprecated(snapshot().skUSDDeprecated, A(40));
    expect(StakedVaultDeprecatedSchema.parse(v)).toEqual(v);
    expect(v).toMatchObject({
      status: "SUPERSEDED",
      totalAssetsKUSD: 100,
      kusdBalanceKUSD: 100,
      totalSupplySharesRaw: "850000",
      redeemableKUSD: 60,
      orphanKUSD: 40,
      tvlUSD: 100,
      countedInSolvency: false,
    });
    expect(v.ownership).toMatchObject({
      protocolOwnedSharesRaw: "600000",
      externalOwnedSharesRaw: "250000",
      holderAddressWithheld: true,
    });
    expect(v.ownership.externalOwnedFraction).toBeCloseTo(250_000 / 850_000, 15);
    // 60 kUSD redeemable · 250,000 / 850,000.
    expect(v.ownership.externalOwnedKUSD).toBeCloseTo(60 * (5 / 17), 12);
    expect(JSON.stringify(v)).not.toContain(EXTERNAL.slice(2));
    expect(v.verifyVia).toHaveLength(5);
  });

  it("one registry balance unread: the split is unknown, the totals are not", () => {
    const s = snapshot();
    const dep = { ...s.skUSDDeprecated, listedShares: [{ account: FOUNDER, shares: null }] };
    const v = buildStakedVaultDeprecated(dep, A(40));
    expect(v.ownership).toMatchObject({
      protocolOwnedSharesRaw: null,
      externalOwnedSharesRaw: null,
      externalOwnedFraction: null,
      externalOwnedKUSD: null,
    });
    expect(v).toMatchObject({ totalSupplySharesRaw: "850000", orphanKUSD: 40 });
  });
});
