/**
 * The realized-yield board (GET /api/honesty-index) assembled from its reads: each chain's head,
 * where each window starts on it, and every vault's convertToAssets(1 share) at those blocks. The
 * one assembler of the service (api/yield/honesty-index.ts) and of a reader re-deriving the board
 * from their own RPC (packages/verify/src/reports/honesty-index.ts).
 */
import type { Hex } from "viem";
import type { SignedArtifact } from "../../attestation/sign.js";
import type { NetworkConfig } from "../../network/types.js";
import { type BlockPin, basePins } from "../../reports/pins.js";
import type { Read } from "../../reserves/por/snapshot.js";
import { isoTime, round } from "../../reserves/units.js";
import { annualizedGrowth } from "../apy/apy-formula.js";
import {
  BOARD_WINDOWS_DAYS,
  type BoardVault,
  type HonestyIndex,
  type HonestyIndexPayload,
  type HonestyIndexPins,
  type HonestyIndexRow,
} from "./honesty-index-schema.js";

export type BoardChain = BoardVault["chain"];

/** Where a window starts on a chain: the last block at or before `target`, and the block after it. */
export type BoardWindow = { days: number; target: number; block: BlockPin | null; next: BlockPin | null };

/** A chain as the board reads it: its head, and each window's start in BOARD_WINDOWS_DAYS order. */
export type BoardChainReads = { head: BlockPin; windows: BoardWindow[] };

/** A vault's convertToAssets(1 share) at its chain's head and at each window's start (null: not read, or no code yet). */
export type BoardVaultReads = { end: Read<bigint>; starts: Read<bigint>[] };

export type HonestyIndexInputs = {
  /** When the board is built, unix seconds (the windows count back from each chain's head instead). */
  now: number;
  network: { chainId: number; documentSha256: Hex };
  /** kUSD's staking vaults, from the network document. */
  own: BoardVault[];
  /** The vaults after ours, as configured (KUSD_HONESTY_PEERS). */
  peers: BoardVault[];
  /** /api/apy expectedAPY when the board is built: skUSD's advertised APY. */
  expectedAPY: number | null;
  /** Each chain a vault lives on (null: no vault there, or its head could not be read). */
  chains: Record<BoardChain, BoardChainReads | null>;
  /** One per vault, ours then the peers. */
  reads: BoardVaultReads[];
};

export const HONESTY_METHOD =
  "realized APY = (convertToAssets(1 share) at the chain's head block / convertToAssets(1 share) at the last block at or before the head's time − N days − 1) × 365 / days between the two blocks";

const NO_START = "no share price that far back (the vault is younger than the window)";

/** Both staking vaults, ours: skUSD advertises /api/apy's expected APY, the superseded one nothing. */
export function ownBoardVaults(n: NetworkConfig): BoardVault[] {
  return [
    {
      name: "skUSD",
      chain: "base",
      address: n.stakingVaults.skUSD.address,
      shareDecimals: 24,
      assetDecimals: 18,
      advertised: "kusd-expected-apy",
    },
    {
      name: "skUSD (superseded)",
      chain: "base",
      address: n.stakingVaults.skUSDDeprecated.address,
      shareDecimals: 24,
      assetDecimals: 18,
      advertised: null,
    },
  ];
}

/** The label of a share price read in its reproduction command. */
export const sharePriceField = (v: BoardVault, block: number) => `${v.name} convertToAssets(1 share) at block ${block}`;

function boardRow(
  v: BoardVault,
  chain: BoardChainReads | null,
  reads: BoardVaultReads | undefined,
  expectedAPY: number | null,
): HonestyIndexRow {
  const head = chain?.head ?? null;
  const end = head ? (reads?.end ?? null) : null;
  const verify: string[] = end && head ? [end.command(sharePriceField(v, head.number))] : [];
  // Filled below, one key per window: tsc checks each key is one the schema publishes.
  const realized = {} as HonestyIndexRow["realized"];
  BOARD_WINDOWS_DAYS.forEach((days, k) => {
    const from = chain?.windows.find((w) => w.days === days)?.block ?? null;
    const start = from ? (reads?.starts[k] ?? null) : null;
    const apy =
      start && end && from && head
        ? annualizedGrowth({ t: from.timestamp, assets: start.value }, { t: head.timestamp, assets: end.value })
        : null;
    if (start && from) verify.push(start.command(sharePriceField(v, from.number)));
    realized[`${days}d` as const] = {
      realizedAPY: apy === null ? null : round(apy, 8),
      fromBlock: start && from ? from.number : null,
      toBlock: end && head ? head.number : null,
      note: start ? undefined : NO_START,
    };
  });
  const advertised = v.advertised === "kusd-expected-apy" ? expectedAPY : v.advertised;
  return {
    name: v.name,
    chain: v.chain,
    address: v.address,
    shareDecimals: v.shareDecimals,
    realized,
    advertisedAPY: advertised === null ? null : round(advertised, 8),
    advertisedSource:
      v.advertised === "kusd-expected-apy" ? "/api/apy expectedAPY" : v.advertised === null ? null : "configured",
    verify,
  };
}

export function honestyIndexPins(i: HonestyIndexInputs): HonestyIndexPins {
  const windows = (["base", "ethereum"] as const).flatMap((chain) =>
    (i.chains[chain]?.windows ?? []).map((w) => ({ chain, ...w })),
  );
  return {
    ...basePins({ report: "honesty-index", network: i.network, block: i.chains.base?.head ?? null, venue: null }),
    ethereumBlock: i.chains.ethereum?.head ?? null,
    windows,
    peers: i.peers,
    expectedAPY: i.expectedAPY,
  };
}

/** What the board signs: every row and the pins they were read at. */
export function buildHonestyIndexPayload(i: HonestyIndexInputs): HonestyIndexPayload {
  const vaults = [...i.own, ...i.peers];
  return {
    kind: "realized-yield-board",
    timestamp: i.now,
    method: HONESTY_METHOD,
    vaults: vaults.map((v, k) => boardRow(v, i.chains[v.chain], i.reads[k], i.expectedAPY)),
    pins: honestyIndexPins(i),
  };
}

/** The board as published: the payload, its time in ISO, and its signature (null fields when unsigned). */
export function honestyIndexDocument(payload: HonestyIndexPayload, signed: SignedArtifact | null): HonestyIndex {
  return {
    ...payload,
    updatedAt: isoTime(payload.timestamp),
    ...(signed ?? { attestation_hash: null, signature: null, signer: null, signed_payload_canonical: null }),
  };
}
