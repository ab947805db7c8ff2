import { describe, expect, it } from "vitest";
import { buildMinterRole } from "./deposit-vaults.js";
import { A, FOUNDER, snapshot } from "./fixture.js";
import { computePorFigures } from "./por-figures.js";
import {
  buildPsmBlock,
  buildPsmMintBlock,
  buildPsmTotals,
  PsmBlockSchema,
  PsmMintBlockSchema,
  PsmTotalsSchema,
} from "./psms.js";
import { psmRole } from "./snapshot.js";

const listed = [{ address: FOUNDER, kind: "eoa" as const, role: "venue_margin" }];

describe("reserves.psm and the per-PSM blocks", () => {
  it("combined: 900,000 USDC and 100,000 kUSD over the three PSMs", () => {
    const s = snapshot();
    const t = buildPsmTotals(s, computePorFigures(s, 20_000, listed));
    expect(PsmTotalsSchema.parse(t)).toEqual(t);
    expect(t).toEqual({
      address: A(3),
      addressPrevMint: A(2),
      addressMint: A(1),
      usdcHeld: 900_000,
      kusdHeld: 100_000,
      kusdHeldWei: "100000000000000000000000",
    });
  });

  it("one PSM's USDC unread: the combined USDC is unknown, the kUSD is not", () => {
    const s = snapshot();
    s.psms.psmRetiredMint = { ...s.psms.psmRetiredMint, usdc: null };
    const t = buildPsmTotals(s, computePorFigures(s, 20_000, listed));
    expect(t).toMatchObject({ usdcHeld: null, kusdHeld: 100_000 });
    expect(buildPsmBlock(s.psms.psmRetiredMint, "psmRetiredMint")).toMatchObject({
      usdcHeld: null,
      kusdHeld: 30_000,
      verifyVia: [expect.stringContaining("psmRetiredMint.kusdHeld")],
    });
  });

  it("a redeem-only PSM: its balances, pause flag and role, no minterRole", () => {
    const b = buildPsmBlock(snapshot().psms.psmRetiredMint, "psmRetiredMint");
    expect(PsmBlockSchema.parse(b)).toEqual(b);
    expect(b).toEqual({
      address: A(2),
      role: psmRole("psmRetiredMint", false),
      usdcHeld: 300_000,
      kusdHeld: 30_000,
      paused: false,
      verifyVia: [expect.any(String), expect.any(String)],
    });
    expect(b.role).toMatch(/^redeem-only/);
  });

  it("the role follows the chain at the block: the prior mint PSM while it still held MINTER_ROLE mints, not redeem-only", () => {
    const s = snapshot();
    const before = { ...s.psms.psmRetiredMint, holdsMinterRole: { value: true, command: () => "cast call …" } };
    expect(buildPsmBlock(before, "psmRetiredMint").role).toMatch(/^mints kUSD/);
    expect(buildPsmBlock({ ...before, holdsMinterRole: null }, "psmRetiredMint").role).toMatch(/^unknown/);
  });

  it("the live mint PSM carries the very minterRole object vaultV2 carries, before verifyVia", () => {
    const s = snapshot();
    const minterRole = buildMinterRole(s);
    const b = buildPsmMintBlock(s.psms.psmMint, minterRole);
    expect(PsmMintBlockSchema.parse(b)).toEqual(b);
    expect(b.minterRole).toBe(minterRole);
    expect(Object.keys(b)).toEqual(["address", "role", "usdcHeld", "kusdHeld", "paused", "minterRole", "verifyVia"]);
    expect(b).toMatchObject({ usdcHeld: 500_000, kusdHeld: 40_000 });
  });
});
