import { describe, expect, it } from "vitest";
import { buildPsmStatus, type MintGates, mintHeadroom, mintReadiness, psmStatusEntry } from "./mint-readiness.js";

const open: MintGates = {
  mintingEnabled: true,
  paused: false,
  supportedStables: true,
  stableCaps: 10_000_000_000_000n,
  currentExposure: 30_000_000n,
  usdcBalance: 30_000_000n,
  psmHasMinterRole: true,
};

describe("mintHeadroom", () => {
  it("the operator's own figure: cap 10,000,000 USDC, exposure and balance 30 USDC → 9,999,970 USDC", () => {
    expect(mintHeadroom("live", open)).toBe(9_999_970_000_000n);
  });

  it("v3 and live bind on the larger of exposure and balance; v1 on exposure alone", () => {
    const floored = { ...open, currentExposure: 0n, usdcBalance: 4_000_000_000_000n };
    expect(mintHeadroom("live", floored)).toBe(6_000_000_000_000n);
    expect(mintHeadroom("v3", floored)).toBe(6_000_000_000_000n);
    expect(mintHeadroom("v1", floored)).toBe(10_000_000_000_000n);
  });

  it("is zero at or over the cap, and unknown when a read it needs failed", () => {
    expect(mintHeadroom("live", { ...open, usdcBalance: 10_000_000_000_001n })).toBe(0n);
    expect(mintHeadroom("live", { ...open, usdcBalance: null })).toBeNull();
    expect(mintHeadroom("v1", { ...open, usdcBalance: null })).toBe(9_999_970_000_000n);
  });
});

describe("mintReadiness", () => {
  it("ready when every gate is open", () => {
    expect(mintReadiness("live", open)).toEqual({ ready: true, blocking: [], unknown: [] });
  });

  it("a shut gate decides even when another is unknown", () => {
    expect(mintReadiness("live", { ...open, mintingEnabled: false, paused: null })).toEqual({
      ready: false,
      blocking: ["mintingEnabled"],
      unknown: ["notPaused"],
    });
    expect(mintReadiness("live", { ...open, usdcBalance: open.stableCaps })).toMatchObject({
      ready: false,
      blocking: ["headroom"],
    });
  });

  it("unknown, never guessed, when a gate could not be read and none is shut", () => {
    expect(mintReadiness("live", { ...open, psmHasMinterRole: null })).toEqual({
      ready: null,
      blocking: [],
      unknown: ["psmHasMinterRole"],
    });
  });
});

describe("buildPsmStatus", () => {
  const network = { chainId: 8453, documentSha256: `0x${"ab".repeat(32)}` as const };
  const blockHash = `0x${"cd".repeat(32)}` as const;
  const at = { blockNumber: 7n, timestamp: 1_780_000_000, blockHash, network };
  const e = (key: "psmMint" | "psmRetiredMint", version: "live" | "v3", gates: MintGates) =>
    psmStatusEntry({ key, label: key, version, address: `0x${key}`, gates, commands: {} });

  it("puts the live mint PSM first and repeats its gates at the top level", () => {
    const doc = buildPsmStatus(
      at,
      [e("psmRetiredMint", "v3", { ...open, psmHasMinterRole: false }), e("psmMint", "live", open)],
      [],
    );
    expect(doc.psms.map((p) => p.key)).toEqual(["psmMint", "psmRetiredMint"]);
    expect(doc).toMatchObject({
      ready: true,
      psm: "0xpsmMint",
      gates: { headroomUSDC: 9_999_970, mintingEnabled: true },
    });
    expect(doc.psms[1]).toMatchObject({ ready: false, blocking: ["psmHasMinterRole"] });
  });

  it("pins the block by number, hash and time, and the network document, after the spec's fields", () => {
    const doc = buildPsmStatus(at, [e("psmMint", "live", open)], []);
    expect(Object.keys(doc)).toEqual([
      "blockNumber",
      "timestamp",
      "psm",
      "ready",
      "gates",
      "psms",
      "failedReads",
      "notDeployed",
      "note",
      "pins",
    ]);
    expect(doc.pins).toEqual({
      report: "psm-status",
      network,
      block: { number: 7, hash: blockHash, timestamp: 1_780_000_000 },
      venue: null,
    });
    expect(buildPsmStatus({ ...at, blockHash: null }, [e("psmMint", "live", open)], []).pins.block).toBeNull();
  });
});
