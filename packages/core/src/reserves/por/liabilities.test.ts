import { describe, expect, it } from "vitest";
import { A, FOUNDER, snapshot } from "./fixture.js";
import { buildLiabilities, LiabilitiesSchema } from "./liabilities.js";
import { computePorFigures } from "./por-figures.js";
import type { ChainSnapshot } from "./snapshot.js";

const build = (s: ChainSnapshot) =>
  buildLiabilities(s, computePorFigures(s, 20_000, [{ address: FOUNDER, kind: "eoa", role: "venue_margin" }]), A(40));

describe("liabilities.kUSD (rule 1)", () => {
  it("outstanding = 1,000,000 supply − 100,000 held by the PSMs", () => {
    const l = build(snapshot());
    expect(LiabilitiesSchema.parse(l)).toEqual(l);
    expect(l.kUSD).toMatchObject({
      address: A(40),
      totalSupply: 1_000_000,
      totalSupplyWei: "1000000000000000000000000",
      outstanding: 900_000,
      outstandingWei: "900000000000000000000000",
      peg: "USD",
    });
    // totalSupply and the three PSM balances it subtracts.
    expect(l.kUSD.verifyVia).toHaveLength(4);
    expect(l.kUSD.verifyVia[1]).toContain("kUSD held by psmMint (subtracted for outstanding)");
  });

  it("one PSM balance unread: outstanding is unknown, the supply is still published", () => {
    const s = snapshot();
    s.psms.psmMint = { ...s.psms.psmMint, kusd: null };
    const l = build(s);
    expect(l.kUSD).toMatchObject({ totalSupply: 1_000_000, outstanding: null, outstandingWei: null });
    expect(l.kUSD.verifyVia).toHaveLength(3);
  });
});
