/**
 * A PSM's parameters at a block, folded from the events it emitted up to that block. The
 * deployed constructor sets only roles, so every announced setting starts at its storage
 * default (false, zero, no stables) and changes only by the events folded here; the setters
 * that emit nothing (setStableCap, setFlashFee, setOracle, setMaxDepegBps,
 * setMinSolvencyThreshold, setMintingEnabled, setVault) are outside what logs can show.
 */
import type { Address, Hex } from "viem";

/** KUSDPSM.DEFAULT_MAX_ORACLE_DELAY: what a window of 0 means. */
export const DEFAULT_MAX_ORACLE_DELAY_SECONDS = 3_600n;

export type PsmParameterLog = {
  name: string;
  stable: Address | null;
  fee: bigint | null;
  cap: bigint | null;
  threshold: bigint | null;
  seconds: bigint | null;
  flag: boolean | null;
  address: Address | null;
  txHash: Hex;
  blockNumber: bigint;
  logIndex: number;
};

/** `order` breaks ties within a block (the row's id, its log's key, sorts in chain order). */
export type PsmPauseLog = { paused: boolean; blockNumber: bigint; order: string };

export type FeeTier = { threshold: bigint; feeBps: bigint };

export type StableParameters = {
  stable: Address;
  /** swapFees[stable] in bps: set only by addStable. */
  feeBps: bigint;
  /** The cap addStable announced; setStableCap changes it without an event. */
  announcedCap: bigint;
  addedAtBlock: bigint;
  /** The table of the last setTieredFees call that emitted a tier, highest threshold first. */
  tiers: FeeTier[];
  tiersSetAtBlock: bigint | null;
  /** As set; 0 means DEFAULT_MAX_ORACLE_DELAY_SECONDS. */
  maxOracleDelaySeconds: bigint;
  effectiveMaxOracleDelaySeconds: bigint;
};

export type PsmParameters = {
  stables: StableParameters[];
  depegCheckDisabled: boolean;
  solvencyCheckDisabled: boolean;
  /** null until setTreasury (skims revert TreasuryNotSet until then). */
  treasury: Address | null;
  paused: boolean;
  /** The block of the last announced change folded in; null when none. */
  lastChangeBlock: bigint | null;
};

/** Folds `logs` (one PSM, any order) up to and including `block`. */
export function psmParametersAt(logs: PsmParameterLog[], pauses: PsmPauseLog[], block: bigint): PsmParameters {
  const ordered = logs
    .filter((l) => l.blockNumber <= block)
    .sort((a, b) =>
      a.blockNumber === b.blockNumber ? a.logIndex - b.logIndex : a.blockNumber < b.blockNumber ? -1 : 1,
    );
  const stables = new Map<Address, StableParameters>();
  const tierCall = new Map<Address, Hex>();
  const out: PsmParameters = {
    stables: [],
    depegCheckDisabled: false,
    solvencyCheckDisabled: false,
    treasury: null,
    paused: false,
    lastChangeBlock: null,
  };
  const stableOf = (stable: Address | null) => (stable ? stables.get(stable) : undefined);
  for (const l of ordered) {
    out.lastChangeBlock = l.blockNumber;
    if (l.name === "StableAdded" && l.stable) {
      const known = stables.get(l.stable);
      stables.set(l.stable, {
        stable: l.stable,
        feeBps: l.fee ?? 0n,
        announcedCap: l.cap ?? 0n,
        addedAtBlock: l.blockNumber,
        // addStable leaves the tier table and the oracle window alone.
        tiers: known?.tiers ?? [],
        tiersSetAtBlock: known?.tiersSetAtBlock ?? null,
        maxOracleDelaySeconds: known?.maxOracleDelaySeconds ?? 0n,
        effectiveMaxOracleDelaySeconds: known?.effectiveMaxOracleDelaySeconds ?? DEFAULT_MAX_ORACLE_DELAY_SECONDS,
      });
    } else if (l.name === "TieredFeeAdded" && l.stable) {
      const s = stableOf(l.stable) ?? unlisted(stables, l.stable);
      // setTieredFees deletes the table, then emits one event per tier it pushes.
      if (tierCall.get(l.stable) !== l.txHash) s.tiers = [];
      tierCall.set(l.stable, l.txHash);
      s.tiers.push({ threshold: l.threshold ?? 0n, feeBps: l.fee ?? 0n });
      s.tiersSetAtBlock = l.blockNumber;
    } else if (l.name === "MaxOracleDelayUpdated" && l.stable) {
      const s = stableOf(l.stable) ?? unlisted(stables, l.stable);
      s.maxOracleDelaySeconds = l.seconds ?? 0n;
      s.effectiveMaxOracleDelaySeconds =
        s.maxOracleDelaySeconds === 0n ? DEFAULT_MAX_ORACLE_DELAY_SECONDS : s.maxOracleDelaySeconds;
    } else if (l.name === "DepegCheckDisabledUpdated") out.depegCheckDisabled = l.flag ?? false;
    else if (l.name === "SolvencyCheckDisabledUpdated") out.solvencyCheckDisabled = l.flag ?? false;
    else if (l.name === "TreasuryUpdated") out.treasury = l.address;
  }
  const lastPause = pauses
    .filter((p) => p.blockNumber <= block)
    .sort((a, b) =>
      a.blockNumber !== b.blockNumber ? (a.blockNumber < b.blockNumber ? -1 : 1) : a.order < b.order ? -1 : 1,
    );
  out.paused = lastPause.at(-1)?.paused ?? false;
  // Settings for a stable never added (tiers or a window set first) are storage all the same,
  // but the stable is not swappable: only added stables are listed.
  out.stables = [...stables.values()].filter((s) => s.addedAtBlock >= 0n);
  return out;
}

/** A stable configured before (or without) addStable: kept apart so addStable can adopt its settings. */
function unlisted(stables: Map<Address, StableParameters>, stable: Address): StableParameters {
  const s: StableParameters = {
    stable,
    feeBps: 0n,
    announcedCap: 0n,
    addedAtBlock: -1n,
    tiers: [],
    tiersSetAtBlock: null,
    maxOracleDelaySeconds: 0n,
    effectiveMaxOracleDelaySeconds: DEFAULT_MAX_ORACLE_DELAY_SECONDS,
  };
  stables.set(stable, s);
  return s;
}
