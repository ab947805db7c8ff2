/**
 * /api/euler without a chain: the pure report from hand-made reads (utilization, the operator's
 * shares, rounding, zero supply, failed reads) and its published schema. The route (404 without
 * a market) is tested in api/lending/routes.test.ts; everything that reads a chain on the
 * devnet (test/e2e/lending-occupancy-e2e.test.ts).
 */

import type { Address } from "viem";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  borrowApr,
  buildOccupancyReport,
  fraction,
  LendingOccupancySchema,
  type OccupancyReads,
  type Read,
  utilization,
} from "./occupancy.js";

const OPERATOR = "0x00000000000000000000000000000000000000aa" as Address;
const GOVERNOR = "0x00000000000000000000000000000000000000bb" as Address;
const USDC_VAULT = "0x0000000000000000000000000000000000000001" as Address;
const ESCROW = "0x0000000000000000000000000000000000000002" as Address;
const USDC = "0x0000000000000000000000000000000000000003" as Address;
const KUSD = "0x0000000000000000000000000000000000000004" as Address;
const BLOCK_HASH = `0x${"cd".repeat(32)}` as const;
const NETWORK = { chainId: 8453, documentSha256: `0x${"ab".repeat(32)}` as const };

const ok = <T>(value: T): Read<T> => ({ value, command: (field) => `cast call x --block 7  # ${field} = ${value}` });
const usdc = (n: number) => BigInt(n) * 10n ** 6n;
const kusd = (n: number) => BigInt(n) * 10n ** 18n;
/** 600 bps a year as the devnet vault states it: 600 × 1e27 / 10,000 / 31,536,000, truncated. */
const RATE_600_BPS = (600n * 10n ** 27n) / 10_000n / 31_536_000n;

/** The devnet's market after "operator supplies the lending market", before any interest accrues. */
function reads(
  over: Partial<{
    supply: bigint;
    borrows: bigint;
    cash: bigint;
    opSupplied: bigint;
    escrowed: bigint;
    opEscrowed: bigint;
  }> = {},
): OccupancyReads {
  const supply = over.supply ?? usdc(30_000);
  const borrows = over.borrows ?? usdc(9_000);
  return {
    blockNumber: 7n,
    blockTimestamp: ok(1_780_000_000),
    blockHash: BLOCK_HASH,
    network: NETWORK,
    operator: OPERATOR,
    governor: ok(GOVERNOR),
    borrowLtvBps: ok(8500),
    lending: {
      address: USDC_VAULT,
      asset: ok(USDC),
      totalAssets: ok(supply),
      totalShares: ok(supply),
      operatorShares: ok(over.opSupplied ?? supply),
      operatorAssets: ok(over.opSupplied ?? supply),
      totalBorrows: ok(borrows),
      cash: ok(over.cash ?? supply - borrows),
      interestRate: ok(RATE_600_BPS),
      operatorDebt: ok(0n),
    },
    escrow: {
      address: ESCROW,
      asset: ok(KUSD),
      totalAssets: ok(over.escrowed ?? kusd(35_000)),
      totalShares: ok(over.escrowed ?? kusd(35_000)),
      operatorShares: ok(over.opEscrowed ?? kusd(20_000)),
      operatorAssets: ok(over.opEscrowed ?? kusd(20_000)),
    },
    failedReads: [],
  };
}

/** Every number anywhere in the document: none may be NaN or infinite. */
const numbers = (doc: unknown): number[] =>
  typeof doc === "number" ? [doc] : doc && typeof doc === "object" ? Object.values(doc).flatMap(numbers) : [];

describe("formulas", () => {
  it("utilization is borrows / totalAssets, and null (not NaN) for an empty vault", () => {
    expect(utilization(usdc(9_000), usdc(30_000))).toBe(0.3);
    expect(utilization(0n, usdc(1))).toBe(0);
    expect(utilization(0n, 0n)).toBeNull();
    expect(utilization(null, usdc(1))).toBeNull();
    expect(utilization(usdc(1), null)).toBeNull();
  });

  it("fractions are computed on raw integers: 18-decimal amounts keep their precision", () => {
    // 1e24 + 1 over 3e24 + 3 is exactly a third; dividing the doubles would round both first.
    expect(fraction(10n ** 24n + 1n, 3n * 10n ** 24n + 3n)).toBe(1 / 3);
    expect(fraction(kusd(20_000), kusd(35_000))).toBeCloseTo(4 / 7, 15);
    // Below 1e-18 the fraction is 0 (truncated), never negative or NaN.
    expect(fraction(1n, 10n ** 30n)).toBe(0);
  });

  it("borrow APR is the per-second ray rate × seconds per year (600 bps → 6%)", () => {
    expect(RATE_600_BPS).toBe(1_902_587_519_025_875_190n);
    expect(borrowApr(RATE_600_BPS)).toBe(0.06);
    expect(borrowApr(0n)).toBe(0);
    expect(borrowApr(null)).toBeNull();
  });
});

describe("buildOccupancyReport", () => {
  it("the devnet market by hand: 9,000 of 30,000 USDC borrowed, the operator supplies all of it and escrows 20,000 of 35,000 kUSD", () => {
    const r = buildOccupancyReport(reads());
    expect(r.venue).toBe("euler");
    expect(r.blockNumber).toBe(7);
    expect(r.timestamp).toBe(new Date(1_780_000_000_000).toISOString());
    expect(r.market).toMatchObject({
      venue: "euler",
      kind: "EVK isolated market",
      lendingVault: USDC_VAULT,
      escrowVault: ESCROW,
      governor: GOVERNOR,
      governedByOperator: false,
      borrowLTVBps: 8500,
      borrowLTV: 0.85,
      borrowLTVPct: "85.00%",
    });
    expect(r.lendingVault).toMatchObject({
      assetAddress: USDC,
      totalSupplyUSDC: 30_000,
      totalSupplyUSDCRaw: "30000000000",
      totalBorrowsUSDC: 9_000,
      totalBorrowsUSDCRaw: "9000000000",
      cashUSDC: 21_000,
      cashUSDCRaw: "21000000000",
      utilization: 0.3,
      utilizationPct: "30.00%",
      interestRatePerSecondRay: "1902587519025875190",
      borrowAPR: 0.06,
      borrowAPRPct: "6.00%",
    });
    expect(r.operatorSupply).toEqual({
      account: OPERATOR,
      sharesRaw: "30000000000",
      suppliedUSDC: 30_000,
      suppliedUSDCRaw: "30000000000",
      shareOfSupply: 1,
      shareOfSupplyPct: "100.00%",
      debtUSDC: 0,
      debtUSDCRaw: "0",
    });
    expect(r.escrowVault).toMatchObject({
      assetAddress: KUSD,
      totalEscrowedKUSD: 35_000,
      totalEscrowedKUSDWei: "35000000000000000000000",
      operatorSharesRaw: "20000000000000000000000",
      operatorEscrowedKUSD: 20_000,
      operatorEscrowedKUSDWei: "20000000000000000000000",
      operatorShareOfEscrowPct: "57.14%", // 20/35 = 0.571428…
    });
    expect(r.escrowVault.operatorShareOfEscrow).toBeCloseTo(0.5714285714285714, 15);
    expect(r.failedReads).toEqual([]);
  });

  it("a partial supplier: 12,500 of 50,000 USDC is a quarter; a governor equal to the operator is flagged", () => {
    const input = reads({ supply: usdc(50_000), borrows: usdc(20_000), opSupplied: usdc(12_500) });
    input.governor = ok(OPERATOR.toUpperCase().replace("0X", "0x") as Address);
    const r = buildOccupancyReport(input);
    expect(r.operatorSupply.shareOfSupply).toBe(0.25);
    expect(r.operatorSupply.shareOfSupplyPct).toBe("25.00%");
    expect(r.lendingVault.utilization).toBe(0.4);
    expect(r.market.governedByOperator).toBe(true);
  });

  it("rounds only the Pct strings, to two decimals", () => {
    const third = buildOccupancyReport(
      reads({ supply: 3n, borrows: 1n, opSupplied: 2n, escrowed: 6n, opEscrowed: 1n }),
    );
    expect(third.lendingVault.utilization).toBeCloseTo(1 / 3, 15);
    expect(third.lendingVault.utilizationPct).toBe("33.33%");
    expect(third.operatorSupply.shareOfSupplyPct).toBe("66.67%");
    expect(third.escrowVault.operatorShareOfEscrowPct).toBe("16.67%");
    // Token amounts are the raw integers in token units, unrounded: 1 raw USDC is 0.000001.
    expect(third.lendingVault.totalBorrowsUSDC).toBe(0.000001);
    const big = buildOccupancyReport(reads({ escrowed: 123_456_789_012_345_678_901_234_567n }));
    expect(big.escrowVault.totalEscrowedKUSDWei).toBe("123456789012345678901234567"); // exact, whatever the double says
  });

  it("zero supply: utilization and the operator's share are null, never NaN", () => {
    const r = buildOccupancyReport(
      reads({ supply: 0n, borrows: 0n, cash: 0n, opSupplied: 0n, escrowed: 0n, opEscrowed: 0n }),
    );
    expect(r.lendingVault.utilization).toBeNull();
    expect(r.lendingVault.utilizationPct).toBeNull();
    expect(r.operatorSupply.shareOfSupply).toBeNull();
    expect(r.operatorSupply.shareOfSupplyPct).toBeNull();
    expect(r.escrowVault.operatorShareOfEscrow).toBeNull();
    expect(r.lendingVault.totalSupplyUSDC).toBe(0);
    expect(numbers(r).every(Number.isFinite)).toBe(true);
  });

  it("a failed read is null with everything derived from it, and has no verifyVia command", () => {
    const input = reads();
    input.lending.totalAssets = null;
    input.lending.interestRate = null;
    input.escrow.operatorAssets = null;
    input.blockTimestamp = null;
    input.failedReads = ["totalAssets()(uint256) on 0x…: boom"];
    const r = buildOccupancyReport(input);
    expect(r.timestamp).toBeNull();
    expect(r.lendingVault).toMatchObject({
      totalSupplyUSDC: null,
      totalSupplyUSDCRaw: null,
      utilization: null,
      utilizationPct: null,
      borrowAPR: null,
      interestRatePerSecondRay: null,
    });
    expect(r.lendingVault.totalBorrowsUSDC).toBe(9_000); // other reads still stand
    expect(r.operatorSupply.suppliedUSDC).toBe(30_000);
    expect(r.operatorSupply.shareOfSupply).toBeNull(); // no denominator
    expect(r.escrowVault.operatorEscrowedKUSD).toBeNull();
    expect(r.escrowVault.operatorShareOfEscrow).toBeNull();
    expect(r.failedReads).toEqual(input.failedReads);
    expect(
      r.verifyVia.some(
        (c) => c.includes("totalSupplyUSDCRaw") || c.includes("interestRatePerSecondRay") || c.includes("# timestamp"),
      ),
    ).toBe(false);
  });

  it("pins the block by number, hash and time, and the network document; none when the header was not read", () => {
    expect(buildOccupancyReport(reads()).pins).toEqual({
      report: "lending-occupancy",
      network: NETWORK,
      block: { number: 7, hash: BLOCK_HASH, timestamp: 1_780_000_000 },
      venue: null,
    });
    expect(buildOccupancyReport({ ...reads(), blockTimestamp: null, blockHash: null }).pins.block).toBeNull();
  });

  it("verifyVia has one command per successful raw read, each naming the field it feeds", () => {
    const r = buildOccupancyReport(reads());
    expect(r.verifyVia).toHaveLength(17);
    for (const field of [
      "lendingVault.totalSupplyUSDCRaw",
      "lendingVault.totalBorrowsUSDCRaw",
      "lendingVault.cashUSDCRaw",
      "operatorSupply.sharesRaw",
      "operatorSupply.suppliedUSDCRaw",
      "escrowVault.totalEscrowedKUSDWei",
      "escrowVault.operatorEscrowedKUSDWei",
      "market.governor",
    ]) {
      expect(r.verifyVia.filter((c) => c.includes(`# ${field} = `))).toHaveLength(1);
    }
  });
});

describe("LendingOccupancySchema", () => {
  /** The report as the route sends it: through JSON, like a client reads it. */
  const json = (input: OccupancyReads) => JSON.parse(JSON.stringify(buildOccupancyReport(input)));
  const failing = () => {
    const input = reads();
    input.blockTimestamp = null;
    input.governor = null;
    input.borrowLtvBps = null;
    input.lending.asset = null;
    input.lending.totalAssets = null;
    input.lending.interestRate = null;
    input.escrow.operatorAssets = null;
    input.failedReads = ["totalAssets()(uint256) on 0x…: boom"];
    return input;
  };

  it("accepts the report: the devnet market, a zero supply, failed reads, and the builder's own object", () => {
    for (const input of [
      reads(),
      reads({ supply: 0n, borrows: 0n, cash: 0n, opSupplied: 0n, escrowed: 0n, opEscrowed: 0n }),
      failing(),
    ]) {
      expect(LendingOccupancySchema.parse(json(input))).toEqual(json(input));
      LendingOccupancySchema.parse(buildOccupancyReport(input));
    }
  });

  it("rejects a report that gains or loses a field, at the top or inside", () => {
    const doc = json(reads());
    expect(LendingOccupancySchema.safeParse({ ...doc, extra: 1 }).success).toBe(false);
    const { verifyVia: _, ...missing } = doc;
    expect(LendingOccupancySchema.safeParse(missing).success).toBe(false);
    expect(
      LendingOccupancySchema.safeParse({ ...doc, lendingVault: { ...doc.lendingVault, supplyAPY: 0.01 } }).success,
    ).toBe(false);
    const { debtUSDC: __, ...operatorSupply } = doc.operatorSupply;
    expect(LendingOccupancySchema.safeParse({ ...doc, operatorSupply }).success).toBe(false);
  });

  it("rejects a null where the report always has a value, and a raw amount that is not an integer string", () => {
    const doc = json(reads());
    expect(LendingOccupancySchema.safeParse({ ...doc, blockNumber: null }).success).toBe(false);
    expect(LendingOccupancySchema.safeParse({ ...doc, market: { ...doc.market, lendingVault: null } }).success).toBe(
      false,
    );
    expect(
      LendingOccupancySchema.safeParse({ ...doc, lendingVault: { ...doc.lendingVault, cashUSDCRaw: "21000.5" } })
        .success,
    ).toBe(false);
  });

  it("converts to JSON Schema (the OpenAPI document's entry)", () => {
    const schema = z.toJSONSchema(LendingOccupancySchema) as any;
    expect(schema.additionalProperties).toBe(false);
    expect(schema.required).toEqual(Object.keys(json(reads())));
  });
});
