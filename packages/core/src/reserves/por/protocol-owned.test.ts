import { parseEther } from "viem";
import { describe, expect, it } from "vitest";
import { A, FOUNDER, R, snapshot } from "./fixture.js";
import { computePorFigures } from "./por-figures.js";
import { buildProtocolOwnedReserves, ProtocolOwnedReservesSchema } from "./protocol-owned.js";
import type { ChainSnapshot } from "./snapshot.js";

const build = (s: ChainSnapshot) =>
  buildProtocolOwnedReserves(
    s,
    computePorFigures(s, 20_000, [{ address: FOUNDER, kind: "eoa", role: "venue_margin" }]),
  );
const hedged = () =>
  snapshot({ hedgeWatchOnly: { address: A(50), eth: R(parseEther("1")), weth: R(parseEther("2")) } });

describe("reserves.protocolOwnedReserves (disclosure only)", () => {
  it("components from the fixture: vault v1, the founder's skUSD and kUSD, the three holders", () => {
    const p = build(snapshot());
    expect(ProtocolOwnedReservesSchema.parse(p)).toEqual(p);
    expect(p.countedInSolvency).toBe(false);
    expect(Object.keys(p.components)).toEqual([
      "vaultDeposits",
      "stakedVaultDeposits",
      "treasury",
      "insuranceFund",
      "multisig",
    ]);
    expect(p.components.vaultDeposits.usd).toBe(36_000);
    expect(p.components.stakedVaultDeposits).toMatchObject({
      address: A(12),
      usd: 307_692.307692,
      shares: 300_000,
      fractionOfVault: 0.76923077,
      founderUnstakedKUSD: 70_000,
      founderUnstakedKUSDInWallet: 50_000,
      founderKUSDEscrowedAsLendingCollateral: 20_000,
      // (307,692.31 staked + 70,000 unstaked) / 900,000 outstanding.
      founderShareOfOutstandingKUSD: 0.41965812,
    });
    expect(p.components.treasury).toEqual({
      address: A(21),
      usd: 5,
      countedInSolvency: false,
      ref: "reserves.treasury",
      source: "USDC and WETH balances",
    });
    expect(p.components.insuranceFund).toMatchObject({ usd: 12_000, countedInSolvency: true });
    expect(p.components.multisig).toMatchObject({ usd: 1_000, countedInSolvency: false });
    // 36,000 + 307,692.307692 + 5 + 12,000 + 1,000.
    expect(p.totalUSD).toBeCloseTo(356_697.307692, 6);
  });

  it("a watch-only wallet adds founderWatchOnlyFloat after stakedVaultDeposits: 1 ETH + 2 WETH = 6,000 USD", () => {
    const p = build(hedged());
    expect(ProtocolOwnedReservesSchema.parse(p)).toEqual(p);
    expect(Object.keys(p.components)[2]).toBe("founderWatchOnlyFloat");
    expect(p.components.founderWatchOnlyFloat).toMatchObject({
      address: A(50),
      nativeEth: 1,
      weth: 2,
      totalEth: 3,
      usd: 6_000,
      countedInSolvency: false,
    });
    expect(p.totalUSD).toBeCloseTo(356_697.307692 + 6_000, 6);
  });

  it("an unread escrow counts as no escrow in the unstaked total; an unread holder makes the total unknown", () => {
    const s = snapshot();
    s.operator = { ...s.operator, escrowKusd: null };
    expect(build(s).components.stakedVaultDeposits).toMatchObject({
      founderKUSDEscrowedAsLendingCollateral: null,
      founderUnstakedKUSD: 50_000,
    });
    s.treasury = { ...s.treasury, usdc: null };
    expect(build(s).totalUSD).toBeNull();
  });
});
