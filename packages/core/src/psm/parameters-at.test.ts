import { describe, expect, it } from "vitest";
import { DEFAULT_MAX_ORACLE_DELAY_SECONDS, type PsmParameterLog, psmParametersAt } from "./parameters-at.js";

const USDC = "0x833589fcd6edb6e08f4c7c32d4f71b54bda02913";
const TREASURY = "0x00000000000000000000000000000000000000aa";
const log = (name: string, blockNumber: bigint, logIndex: number, fields: Partial<PsmParameterLog> = {}) =>
  ({
    name,
    stable: null,
    fee: null,
    cap: null,
    threshold: null,
    seconds: null,
    flag: null,
    address: null,
    txHash: `0x${blockNumber.toString(16).padStart(64, "0")}`,
    blockNumber,
    logIndex,
    ...fields,
  }) as PsmParameterLog;

describe("psmParametersAt", () => {
  const logs = [
    log("StableAdded", 10n, 0, { stable: USDC, fee: 5n, cap: 1_000_000n }),
    log("TieredFeeAdded", 12n, 0, { stable: USDC, threshold: 100_000n, fee: 2n }),
    log("TieredFeeAdded", 12n, 1, { stable: USDC, threshold: 10_000n, fee: 4n }),
    log("MaxOracleDelayUpdated", 13n, 0, { stable: USDC, seconds: 93_600n }),
    log("TreasuryUpdated", 14n, 0, { address: TREASURY }),
    log("DepegCheckDisabledUpdated", 15n, 0, { flag: true }),
    // A second setTieredFees replaces the whole table.
    log("TieredFeeAdded", 20n, 3, { stable: USDC, threshold: 50_000n, fee: 1n }),
    log("MaxOracleDelayUpdated", 21n, 0, { stable: USDC, seconds: 0n }),
  ];

  it("starts from the storage defaults before any event", () => {
    expect(psmParametersAt(logs, [], 9n)).toEqual({
      stables: [],
      depegCheckDisabled: false,
      solvencyCheckDisabled: false,
      treasury: null,
      paused: false,
      lastChangeBlock: null,
    });
  });

  it("folds each announced change at its block, and nothing after", () => {
    const at15 = psmParametersAt(logs, [], 15n);
    expect(at15.stables).toEqual([
      {
        stable: USDC,
        feeBps: 5n,
        announcedCap: 1_000_000n,
        addedAtBlock: 10n,
        tiers: [
          { threshold: 100_000n, feeBps: 2n },
          { threshold: 10_000n, feeBps: 4n },
        ],
        tiersSetAtBlock: 12n,
        maxOracleDelaySeconds: 93_600n,
        effectiveMaxOracleDelaySeconds: 93_600n,
      },
    ]);
    expect(at15.treasury).toBe(TREASURY);
    expect(at15.depegCheckDisabled).toBe(true);
    expect(at15.lastChangeBlock).toBe(15n);
  });

  it("replaces the tier table per setTieredFees call, and reads a window of 0 as the default", () => {
    const at21 = psmParametersAt(logs, [], 21n).stables[0];
    expect(at21?.tiers).toEqual([{ threshold: 50_000n, feeBps: 1n }]);
    expect(at21?.effectiveMaxOracleDelaySeconds).toBe(DEFAULT_MAX_ORACLE_DELAY_SECONDS);
  });

  it("lists only added stables, adopting settings made before addStable", () => {
    const early = [
      log("MaxOracleDelayUpdated", 5n, 0, { stable: USDC, seconds: 7_200n }),
      log("StableAdded", 6n, 0, { stable: USDC, fee: 1n, cap: 9n }),
    ];
    expect(psmParametersAt(early, [], 5n).stables).toEqual([]);
    expect(psmParametersAt(early, [], 6n).stables[0]?.maxOracleDelaySeconds).toBe(7_200n);
  });

  it("is paused as its last Paused/Unpaused at or before the block says", () => {
    const pauses = [
      { paused: true, blockNumber: 30n, order: "a" },
      { paused: false, blockNumber: 30n, order: "b" },
      { paused: true, blockNumber: 40n, order: "a" },
    ];
    expect(psmParametersAt([], pauses, 29n).paused).toBe(false);
    expect(psmParametersAt([], pauses, 30n).paused).toBe(false);
    expect(psmParametersAt([], pauses, 40n).paused).toBe(true);
  });
});
