/**
 * The assembled report, rule by rule (spec 2.3), on the hand-made snapshots of fixture.ts, and
 * its contract: PorReportSchema accepts every report the assembler builds and rejects one that
 * gained or lost a field.
 */

import { parseEther } from "viem";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { A, allReadsFailed, EXTERNAL, FOUNDER, inputs, kusd, R, redemption, snapshot } from "./fixture.js";
import { buildPorReport, PorReportSchema } from "./por-report.js";

describe("buildPorReport", () => {
  it("liabilities rule 1 and solvency rules 2–4 by hand", () => {
    const r = buildPorReport(inputs());
    expect(r.liabilities.kUSD.outstanding).toBe(900_000);
    expect(r.solvency.psmSolvencyRatio).toBeCloseTo(900_000 / 900_000, 10);
    // Mirror 5 ETH = 10,000 USD ≤ venue 20,000: recognised in full. v1 = 18 ETH = 36,000 USD.
    expect(r.reserves.vault.tvlUSD).toBe(36_000);
    expect(r.solvency.collateralUSD).toBe(36_000 + 12_000 + 900_000);
    expect(r.solvency.aggregateCollateralRatio).toBeCloseTo(948_000 / 900_000, 8);
    expect(r.solvency.status).toBe("fully-backed");
  });

  it("vault rule 2: capped at the live venue equity, and nothing recognised when the venue fails", () => {
    const capped = buildPorReport(inputs(snapshot(), 4_000)).reserves.vault.composition.l1Assets;
    expect(capped).toMatchObject({
      usd: 4_000,
      eth: 2,
      excessUsd: 6_000,
      reconciliationStatus: "capped-to-live-venue",
    });
    const failed = buildPorReport(inputs(snapshot(), null));
    expect(failed.reserves.vault.composition.l1Assets).toMatchObject({
      usd: 0,
      eth: 0,
      excessUsd: null,
      liveVenueEquityUsd: null,
      reconciliationStatus: "unverified",
    });
    expect(failed.reserves.vault.tvlUSD).toBe(13 * 2_000);
    // Rule 3: the raw mirror stays disclosed.
    expect(failed.reserves.vault.composition.l1Assets.onChainMirror.wei).toBe(parseEther("5").toString());
    expect(failed.reserves.vault.onChainTotalAssets.wei).toBe(parseEther("18").toString());
  });

  it("rule 5: vault v1 never moves the 1:1 backing; rule 6: staking vaults and vault v2 never count", () => {
    const base = buildPorReport(inputs());
    const richVault = snapshot();
    richVault.vaultV1 = { ...richVault.vaultV1, wethBalance: R(parseEther("1000")) };
    richVault.skUSD = { ...richVault.skUSD, totalAssets: R(kusd(9_000_000)) };
    richVault.vaultV2 = { ...richVault.vaultV2, totalAssets: R(parseEther("5000")) };
    const r = buildPorReport(inputs(richVault));
    expect(r.solvency.psmSolvencyRatio).toBe(base.solvency.psmSolvencyRatio);
    expect(r.solvency.collateralUSD! - base.solvency.collateralUSD!).toBeCloseTo(990 * 2_000, 6); // only vault v1 moved it
  });

  it("holdsRole is null (read-failed) when the minter-role read did not land, never false", () => {
    const snap = snapshot();
    snap.psms.psmMint = { ...snap.psms.psmMint, holdsMinterRole: null };
    const r = buildPorReport(inputs(snap));
    expect(r.reserves.psmMint.minterRole).toMatchObject({ holdsRole: null, readStatus: "read-failed" });
    expect(r.reserves.vaultV2.minterRole).toBe(r.reserves.psmMint.minterRole);
  });

  it("superseded vault: raw share units, external = supply − listed, orphan = assets − redeemable", () => {
    const v = buildPorReport(inputs()).reserves.stakedVaultDeprecated;
    expect(v.totalSupplySharesRaw).toBe("850000");
    expect(v.ownership.protocolOwnedSharesRaw).toBe("600000");
    expect(v.ownership.externalOwnedSharesRaw).toBe("250000");
    expect(v.ownership.externalOwnedKUSD).toBeCloseTo((60 * 250_000) / 850_000, 12);
    expect(v.orphanKUSD).toBe(40);
    expect(v.ownership.holderAddressWithheld).toBe(true);
    expect(JSON.stringify(v)).not.toContain(EXTERNAL.slice(2));
  });

  it("multisig threshold is N-of-M from the reads; unknown when a read failed", () => {
    expect(buildPorReport(inputs()).reserves.multisig.threshold).toBe("2-of-3");
    const snap = snapshot();
    snap.multisig = { ...snap.multisig, owners: null };
    expect(buildPorReport(inputs(snap)).reserves.multisig.threshold).toBeNull();
  });

  it("protocol-owned reserves are never added to collateral", () => {
    const r = buildPorReport(inputs());
    expect(r.reserves.protocolOwnedReserves.countedInSolvency).toBe(false);
    expect(r.reserves.protocolOwnedReserves.components.insuranceFund.countedInSolvency).toBe(true);
    expect(r.solvency.collateralUSD).toBe(36_000 + 12_000 + 900_000);
  });

  it("redemption precedent rule 5: redemptions burn nothing; a non-registry redeemer is external", () => {
    const p = buildPorReport(inputs(snapshot(), 20_000, [redemption(FOUNDER, "1"), redemption(EXTERNAL, "2")]))
      .redemptionDepth.precedent;
    expect(p).toMatchObject({
      executedRedemptions: 2,
      totalRedeemedKUSD: 2_000,
      totalPaidOutUSDC: 1_998,
      externalRedemptionsToDate: 1,
      allRedemptionsByFounderWallet: false,
      lifetimeKUSDBurned: 0,
    });
    expect(p.transactions[1]!.significance).toContain("first external redemption");
  });

  it("top level: the spec's fields in the published order", () => {
    const r = buildPorReport(inputs());
    expect(Object.keys(r)).toEqual([
      "protocol",
      "chain",
      "chainId",
      "blockNumber",
      "blockHash",
      "timestamp",
      "atHead",
      "reserves",
      "liabilities",
      "solvency",
      "redemptionDepth",
      "market",
      "methodology",
      "attestation",
      "pins",
    ]);
    expect(Object.keys(r.reserves)).toEqual([
      "vault",
      "vaultV2",
      "stakedVault",
      "stakedVaultDeprecated",
      "insuranceFund",
      "treasury",
      "multisig",
      "psm",
      "psmRedeemReserve",
      "psmRetiredMint",
      "psmMint",
      "protocolOwnedReserves",
    ]);
    expect(r).toMatchObject({
      protocol: "kUSD",
      chain: "base",
      chainId: 8453,
      blockNumber: 1000,
      timestamp: "2026-09-21T14:13:20.000Z",
      atHead: true,
    });
  });
});

describe("PorReportSchema", () => {
  const hedged = snapshot({ hedgeWatchOnly: { address: A(50), eth: R(parseEther("1")), weth: R(parseEther("2")) } });
  const variants: [string, Parameters<typeof buildPorReport>[0]][] = [
    ["every read present", inputs()],
    ["venue unreadable", inputs(snapshot(), null)],
    ["no ETH / USD feed", inputs(snapshot({ ethUsd: null }))],
    ["a watch-only wallet", inputs(hedged)],
    ["every read failed", inputs(allReadsFailed(hedged), null)],
    ["redemptions", inputs(snapshot(), 20_000, [redemption(FOUNDER, "1"), redemption(EXTERNAL, "2")])],
  ];

  it.each(variants)("accepts the report as published (JSON) with %s", (_, i) => {
    const json: unknown = JSON.parse(JSON.stringify(buildPorReport(i)));
    expect(PorReportSchema.parse(json)).toEqual(json);
  });

  it("rejects a report that gained or lost a field, at any depth", () => {
    const r = JSON.parse(JSON.stringify(buildPorReport(inputs())));
    expect(PorReportSchema.safeParse({ ...r, extra: 1 }).success).toBe(false);
    const lost = structuredClone(r);
    delete lost.reserves.vault.composition.l1Assets.venueRead;
    expect(PorReportSchema.safeParse(lost).success).toBe(false);
    const gained = structuredClone(r);
    gained.redemptionDepth.byContract[0].extra = true;
    expect(PorReportSchema.safeParse(gained).success).toBe(false);
  });

  it("minterRole is on psmMint only", () => {
    const r = JSON.parse(JSON.stringify(buildPorReport(inputs())));
    r.reserves.psmRetiredMint.minterRole = r.reserves.psmMint.minterRole;
    expect(PorReportSchema.safeParse(r).success).toBe(false);
  });

  it("converts to a JSON Schema (the OpenAPI 3.1 document's)", () => {
    const doc = z.toJSONSchema(PorReportSchema) as {
      additionalProperties?: boolean;
      required?: string[];
      properties: Record<string, { description?: string }>;
    };
    expect(doc.additionalProperties).toBe(false);
    expect(doc.required).toContain("reserves");
    expect(doc.properties.blockNumber!.description).toMatch(/pinned/);
    expect(JSON.stringify(doc)).toContain('"pattern":"^0x[0-9a-fA-F]{40}$"');
  });
});
