import { describe, expect, it } from "vitest";
import {
  buildMinterRole,
  buildVaultV1,
  buildVaultV2,
  MinterRoleSchema,
  VaultV1Schema,
  VaultV2Schema,
} from "./deposit-vaults.js";
import { A, FOUNDER, inputs, snapshot } from "./fixture.js";
import { computePorFigures } from "./por-figures.js";
import type { ChainSnapshot } from "./snapshot.js";

const listed = [{ address: FOUNDER, kind: "eoa" as const, role: "venue_margin" }];
const v1 = (s: ChainSnapshot, venueEquity: number | null) => {
  const venue = inputs(s, venueEquity).venue;
  return buildVaultV1(s, computePorFigures(s, venueEquity, listed), venue, A(42));
};

describe("minterRole (rules 1–3)", () => {
  it("read live: holdsRole true, the role hash and the read's command", () => {
    const m = buildMinterRole(snapshot());
    expect(MinterRoleSchema.parse(m)).toEqual(m);
    expect(m).toMatchObject({
      role: "MINTER_ROLE",
      roleHash: "0x9f2df0fed2c77648de5860a4cc508cd0818c85b8b8a1ab4ceeef8d981c8956a6",
      holder: A(1),
      holdsRole: true,
      readStatus: "live-read",
      readBlock: 1000,
    });
    expect(m.verifyVia).toHaveLength(1);
  });

  it("the read did not land: null and read-failed, never false", () => {
    const s = snapshot();
    s.psms.psmMint = { ...s.psms.psmMint, holdsMinterRole: null };
    expect(buildMinterRole(s)).toMatchObject({ holdsRole: null, readStatus: "read-failed", verifyVia: [] });
  });
});

describe("reserves.vaultV2", () => {
  it("3 ETH of mirror at 2,000 USD: 6,000 USD, never counted", () => {
    const minterRole = buildMinterRole(snapshot());
    const v = buildVaultV2(snapshot().vaultV2, minterRole, A(42), 2_000);
    expect(VaultV2Schema.parse(v)).toEqual(v);
    expect(v).toMatchObject({
      address: A(11),
      version: "v2",
      asset: "WETH",
      assetAddress: A(42),
      totalAssetsETH: 3,
      totalAssetsWei: "3000000000000000000",
      shareDecimals: 21,
      totalSupplyShares: 0,
      wethBalanceETH: 0,
      l1AssetsETH: 3,
      tvlUSD: 6_000,
      countedInSolvency: false,
    });
    expect(v.minterRole).toBe(minterRole);
    expect(v.verifyVia).toHaveLength(5);
    expect(buildVaultV2(snapshot().vaultV2, minterRole, A(42), null).tvlUSD).toBeNull();
  });
});

describe("reserves.vault (vault v1, rules 1–3)", () => {
  it("mirror 10,000 USD under venue equity 20,000: recognised in full, TVL 18 ETH = 36,000 USD", () => {
    const v = v1(snapshot(), 20_000);
    expect(VaultV1Schema.parse(v)).toEqual(v);
    expect(v).toMatchObject({
      address: A(10),
      liveDepositVault: A(11),
      assetAmount: 10,
      tvlUSD: 36_000,
      totalSupplyShares: 18,
    });
    expect(v.onChainTotalAssets).toMatchObject({ eth: 18, wei: "18000000000000000000", usd: 36_000 });
    expect(v.composition).toMatchObject({
      trackedOnChain: { eth: 10, usd: 20_000 },
      offChainAssets: { eth: 2, usd: 4_000 },
      hedgingReserve: { eth: 1, usd: 2_000 },
    });
    expect(v.composition.l1Assets).toMatchObject({
      eth: 5,
      usd: 10_000,
      excessUsd: 0,
      liveVenueEquityUsd: 20_000,
      reconciliationStatus: "reconciled",
      venueRead: {
        source: "live",
        reason: null,
        venueTime: null,
        ageSeconds: 1,
        recordedAtBlock: null,
        statement: null,
        statementUrl: null,
      },
      venue: FOUNDER,
    });
    expect(v.composition.l1Assets.source).toBe(
      `http://venue/info clearinghouseState(${FOUNDER}).marginSummary.accountValue`,
    );
    // The mirror's read and the venue's own command.
    expect(v.composition.l1Assets.verifyVia).toEqual([expect.stringContaining("l1Assets.onChainMirror.wei"), "curl …"]);
  });

  it("venue equity 4,000: recognised 2 ETH, 6,000 USD excess, TVL 15 ETH", () => {
    const v = v1(snapshot(), 4_000);
    expect(v.composition.l1Assets).toMatchObject({
      eth: 2,
      usd: 4_000,
      excessUsd: 6_000,
      reconciliationStatus: "capped-to-live-venue",
    });
    expect(v.tvlUSD).toBe(30_000);
  });

  it("no ETH price: every USD figure and the TVL are unknown, the raw mirror still disclosed", () => {
    const v = v1(snapshot({ ethUsd: null }), 20_000);
    expect(v.tvlUSD).toBeNull();
    expect(v.composition.l1Assets).toMatchObject({
      eth: null,
      usd: null,
      excessUsd: null,
      reconciliationStatus: "unverified",
    });
    expect(v.composition.l1Assets.onChainMirror).toMatchObject({ eth: 5, usd: null, wei: "5000000000000000000" });
  });
});
