/**
 * The pure report assembler, rule by rule (spec 2.3), on hand-made snapshots with round
 * numbers so every expected figure is computed here by hand.
 */
import { describe, expect, it } from "vitest";
import { parseEther, parseUnits, type Address } from "viem";
import type { ChainSnapshot, Read } from "../../api/reserves/chain-snapshot.js";
import { buildPorReport, type PorInputs } from "../../api/reserves/por-report.js";
import { buildStatementPayload, statementStatus } from "../../api/attestation/statement.js";
import type { IndexedRedemption } from "../../api/indexed/reads.js";

const A = (n: number) => `0x${n.toString(16).padStart(40, "0")}` as Address;
const R = <T>(value: T): Read<T> => ({ value, command: (f) => `cast call … # ${f} = ${String(value)}` });
const usdc = (x: number) => parseUnits(String(x), 6);
const kusd = (x: number) => parseEther(String(x));
const FOUNDER = A(100);
const EXTERNAL = A(101);

function snapshot(over: Partial<ChainSnapshot> = {}): ChainSnapshot {
  const psm = (n: number, u: number, k: number, minter: boolean) => ({ address: A(n), usdc: R(usdc(u)), kusd: R(kusd(k)), holdsMinterRole: R(minter), paused: R(false), fees: { version: "live" as const, tiers: [{ threshold: usdc(50_000), feeBps: 8n }], swapFeeBps: 10n, virtualPegEnabled: false, virtualPegFeeBps: 0n } });
  const vault = (n: number, weth: number, off: number, l1: number, hedge: number, supply: number) => ({
    address: A(n), shareDecimals: R(21), totalAssets: R(parseEther(String(weth + off + l1 + hedge))), totalSupply: R(parseEther(String(supply))), wethBalance: R(parseEther(String(weth))),
    offChainAssets: R(parseEther(String(off))), l1Assets: R(parseEther(String(l1))), hedgingReserve: R(parseEther(String(hedge))),
  });
  const staking = (n: number, assets: number, supplyRaw: bigint, listed: bigint, redeemable: number) => ({
    address: A(n), shareDecimals: R(24), totalAssets: R(kusd(assets)), totalSupply: R(supplyRaw), kusdBalance: R(kusd(assets)), redeemable: R(kusd(redeemable)), assetsPerShare: R(kusd(1)),
    listedShares: [{ account: FOUNDER, shares: R(listed) }],
  });
  return {
    blockNumber: 1000n,
    blockTimestamp: 1_790_000_000,
    // 1,000,000 kUSD supply; 100,000 of it sits in the PSMs → 900,000 outstanding.
    kusdTotalSupply: R(kusd(1_000_000)),
    psms: { psmMint: psm(1, 500_000, 40_000, true), psmRetiredMint: psm(2, 300_000, 30_000, false), psmRedeemReserve: psm(3, 100_000, 30_000, false) },
    // Vault v1: 10 WETH + 2 off-chain + 5 mirror + 1 hedging.
    vaultV1: vault(10, 10, 2, 5, 1, 18),
    vaultV2: vault(11, 0, 0, 3, 0, 0),
    skUSD: staking(12, 400_000, 390_000n * 10n ** 24n, 300_000n * 10n ** 24n, 400_000),
    skUSDDeprecated: staking(13, 100, 850_000n, 600_000n, 60),
    insuranceFund: { address: A(20), usdc: R(usdc(10_000)), weth: R(parseEther("1")) },
    treasury: { address: A(21), usdc: R(usdc(5)), weth: R(0n) },
    multisig: { address: A(22), usdc: R(usdc(1_000)), weth: R(0n), threshold: R(2n), owners: R([A(1), A(2), A(3)]) },
    operator: { address: FOUNDER, kusd: R(kusd(50_000)), escrowShares: R(kusd(20_000)), escrowKusd: R(kusd(20_000)) },
    hedgeWatchOnly: null,
    ethUsd: { answer: R(2_000n * 10n ** 8n), decimals: 8, updatedAt: 1_790_000_000, address: A(30) },
    failedReads: [],
    ...over,
  };
}

function inputs(snap = snapshot(), venueEquityUsd: number | null = 20_000, redemptions: IndexedRedemption[] = []): PorInputs {
  return {
    chainId: 8453,
    snapshot: snap,
    venue: { state: venueEquityUsd === null ? null : { equityUsd: venueEquityUsd, notionalUsd: 0, positions: [], time: 0 }, reason: venueEquityUsd === null ? "venue read failed" : null, url: "http://venue/info", account: FOUNDER, readCommand: "curl …" },
    precedent: { redemptions, registry: [{ registry_version: 1, issued_at: 0, as_of: "2026-05-14", disclosed_venue_deposits: [], entries: [{ address: FOUNDER, kind: "eoa", chain: "base", role: "venue_margin", venue: "hyperliquid", label: "operator", holds_protocol_funds: true, backs_kusd: false, ref: "operator" }] }], kusdBurned: 0n, completeAsOf: { blockNumber: 1000n, timestamp: 1_790_000_000 }, kusd: A(40), fromBlock: 1, rpcUrl: "http://rpc" },
    registry: [],
    addresses: { kUSD: A(40), usdc: A(41), weth: A(42), ethUsdFeed: A(30) },
    listed: [{ address: FOUNDER, kind: "eoa", role: "venue_margin" }],
    rpcChainLength: 1000,
    canonicalEndpoint: "http://site/api/por",
    commandRpcUrl: "http://rpc",
    indexedHead: { blockNumber: 1000n, timestamp: 1_790_000_000 },
    atHead: true,
  };
}

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
    expect(capped).toMatchObject({ usd: 4_000, eth: 2, excessUsd: 6_000, reconciliationStatus: "capped-to-live-venue" });
    const failed = buildPorReport(inputs(snapshot(), null));
    expect(failed.reserves.vault.composition.l1Assets).toMatchObject({ usd: 0, eth: 0, excessUsd: null, liveVenueEquityUsd: null, reconciliationStatus: "unverified" });
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
    const red = (user: Address, id: string): IndexedRedemption => ({ id, psmKey: "psmMint", psm: A(1), direction: "redeem", user, usdcAmount: usdc(999), kusdAmount: kusd(1_000), fee: kusd(1), feeBps: 10, kusdBurned: 0n, txHash: `0x${id.padStart(64, "0")}`, blockNumber: 900n, timestamp: 1_789_000_000n, logIndex: 0 });
    const p = buildPorReport(inputs(snapshot(), 20_000, [red(FOUNDER, "1"), red(EXTERNAL, "2")])).redemptionDepth.precedent;
    expect(p).toMatchObject({ executedRedemptions: 2, totalRedeemedKUSD: 2_000, totalPaidOutUSDC: 1_998, externalRedemptionsToDate: 1, allRedemptionsByFounderWallet: false, lifetimeKUSDBurned: 0 });
    expect(p.transactions[1]!.significance).toContain("first external redemption");
  });
});

describe("signed statement payload", () => {
  it("status names PSM solvency and a degraded vault v1 mirror", () => {
    expect(statementStatus(true, "reconciled")).toBe("PSM_SOLVENT");
    expect(statementStatus(true, "capped-to-live-venue")).toBe("PSM_SOLVENT_VAULT_V1_DEGRADED_KNOWN");
    expect(statementStatus(false, "reconciled")).toBe("PSM_UNDER_BACKED");
    expect(statementStatus(null, "unverified")).toBe("PSM_UNKNOWN_VAULT_V1_DEGRADED_KNOWN");
  });

  it("publishes psm_solvency_ratio on outstanding kUSD and attests vault v2", () => {
    const r = buildPorReport(inputs());
    const p = buildStatementPayload(r, { timestamp: 1_790_000_100, chainName: "Base", signerRole: "attestation-key", bindingUrl: "http://site/api/por/signer-registry" });
    expect(p.psm_solvency_ratio).toBe(r.solvency.psmSolvencyRatio);
    expect(p.outstanding_kusd).toBe(900_000);
    expect(p.chains[0]!.vault_address).toBe(A(11));
    expect(p.timestamp).toBe(1_790_000_100);
  });
});
