import { describe, expect, it } from "vitest";
import { A, EXTERNAL, FOUNDER, kusd, REGISTRY, redemption } from "./fixture.js";
import { buildPrecedent, type PrecedentInputs, PrecedentSchema, relationship } from "./precedent.js";

const psms = [
  { key: "psmMint", address: A(1), label: "live mint PSM" },
  { key: "psmRedeemReserve", address: A(3), label: "legacy redeem PSM" },
];
const base: PrecedentInputs = {
  redemptions: [],
  psms,
  registry: REGISTRY,
  kusdBurned: 0n,
  completeAsOf: { blockNumber: 1000n, timestamp: 1_790_000_000 },
  kusd: A(40),
  fromBlock: 1,
  rpcUrl: "http://rpc",
};

describe("redemptionDepth.precedent", () => {
  it("two 1,000 kUSD redemptions, the founder's then an external one", () => {
    const p = buildPrecedent({ ...base, redemptions: [redemption(FOUNDER, "1"), redemption(EXTERNAL, "2")] });
    expect(PrecedentSchema.parse(p)).toEqual(p);
    expect(p).toMatchObject({
      executedRedemptions: 2,
      totalRedeemedKUSD: 2_000,
      totalPaidOutUSDC: 1_998,
      externalRedemptionsToDate: 1,
      allRedemptionsByFounderWallet: false,
      lifetimeKUSDBurned: 0,
      lifetimeKUSDBurnedWei: "0",
      redemptionBurnedKUSD: 0,
      completeAsOf: "2026-09-21",
      completeAsOfBlock: 1000,
    });
    expect(p.transactions[0]).toMatchObject({
      date: "2026-09-10",
      blockNumber: 900,
      psmAddress: A(1),
      psmLabel: "live mint PSM",
      psmKey: "psmMint",
      kusdRedeemed: 1_000,
      usdcPaidOut: 999,
      feeBps: 10,
      redeemer: FOUNDER,
      redeemerRelationship: "operator account (registry role venue_margin: operator)",
      significance: "first redemption against live mint PSM",
    });
    expect(p.transactions[1]).toMatchObject({
      redeemerRelationship: "external: not an account of the operator's registry",
      significance: "first external redemption",
    });
  });

  it("only the founder redeemed: all by the founder wallet; a PSM first seen later gets its own first", () => {
    const other = { ...redemption(FOUNDER, "3"), psmKey: "psmRedeemReserve", psm: A(3), kusdBurned: kusd(5) };
    const p = buildPrecedent({
      ...base,
      redemptions: [redemption(FOUNDER, "1"), redemption(FOUNDER, "2"), other],
      kusdBurned: kusd(5),
    });
    expect(p).toMatchObject({
      allRedemptionsByFounderWallet: true,
      externalRedemptionsToDate: 0,
      redemptionBurnedKUSD: 5,
      lifetimeKUSDBurned: 5,
      lifetimeKUSDBurnedWei: "5000000000000000000",
    });
    expect(p.transactions.map((t) => t.significance)).toEqual([
      "first redemption against live mint PSM",
      "routine redemption",
      "first redemption against legacy redeem PSM",
    ]);
  });

  it("the relationship is the registry's in force at the redemption, not today's", () => {
    const later = [{ ...REGISTRY[0]!, issued_at: 1_789_500_000 }];
    expect(relationship(later, FOUNDER, 1_789_000_000)).toEqual({
      text: "external: not an account of the operator's registry",
      founder: false,
      listed: false,
    });
    expect(relationship(later, FOUNDER, 1_790_000_000)).toMatchObject({ founder: true, listed: true });
  });

  it("verifyVia: one Swap log query per PSM and the burn query, bounded by completeAsOfBlock", () => {
    const p = buildPrecedent(base);
    expect(p.verifyVia).toHaveLength(3);
    expect(p.verifyVia[0]).toMatch(/^cast logs --from-block 1 --to-block 1000 --address 0x0{39}1 'Swap\(/);
    expect(p.verifyVia[2]).toContain("# lifetimeKUSDBurnedWei = sum of these amounts (0)");
  });
});
