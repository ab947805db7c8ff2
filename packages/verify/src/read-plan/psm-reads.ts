/**
 * A PSM's reads at the pinned block: its USDC and kUSD, the minter role, the pause, and the
 * deployed fee rule (tiers, swapFees[USDC], the virtual peg).
 */
import {
  type FeeSchedule,
  type FeeTier,
  MINTER_ROLE,
  PSM_KEYS,
  PSM_VERSIONS,
  type PsmKey,
  type PsmSnapshot,
} from "@kusd/core";
import type { Address } from "viem";
import type { SnapshotAddresses } from "./addresses.js";
import { type PinnedReader, tolerantReads } from "./pinned-reader.js";

type TolerantRead = ReturnType<typeof tolerantReads>["read"];

/** The most tiers read: a deployed PSM has four. */
const MAX_FEE_TIERS = 20;

/**
 * The tiers as stored (the public array, up to its end): order matters to the fee rule. Every
 * index is asked at once, in the block's batch; the tiers are the answers before the first
 * index that fails (past the end of the array, reading it reverts).
 */
async function feeTiers(r: PinnedReader, usdc: Address, psm: Address): Promise<FeeTier[]> {
  const reads = await Promise.all(
    Array.from({ length: MAX_FEE_TIERS }, (_, i) =>
      r.outcome<[bigint, bigint]>({
        to: psm,
        signature: "tieredFees(address,uint256)(uint256,uint256)",
        args: [usdc, BigInt(i)],
      }),
    ),
  );
  const end = reads.findIndex((x) => !x.ok);
  return reads.slice(0, end === -1 ? reads.length : end).map((x) => {
    const [threshold, feeBps] = (x as { value: [bigint, bigint] }).value;
    return { threshold, feeBps };
  });
}

/** What the deployed fee rule reads: tiers, `swapFees[USDC]` and the virtual peg. */
async function feeSchedule(r: PinnedReader, usdc: Address, psm: Address, key: PsmKey): Promise<FeeSchedule | null> {
  try {
    const [tiers, swapFeeBps, virtualPegEnabled, virtualPegFeeBps] = await Promise.all([
      feeTiers(r, usdc, psm),
      r.call<bigint>({ to: psm, signature: "swapFees(address)(uint256)", args: [usdc] }),
      r.call<boolean>({ to: psm, signature: "virtualPegEnabled()(bool)" }),
      r.call<bigint>({ to: psm, signature: "virtualPegFeeBps()(uint256)" }),
    ]);
    return { version: PSM_VERSIONS[key], tiers, swapFeeBps, virtualPegEnabled, virtualPegFeeBps };
  } catch {
    return null;
  }
}

export async function readPsm(
  r: PinnedReader,
  read: TolerantRead,
  a: Pick<SnapshotAddresses, "usdc" | "kUSD">,
  key: PsmKey,
  address: Address,
): Promise<PsmSnapshot> {
  const balance = (token: Address, decimals: number) =>
    read<bigint>({ to: token, signature: "balanceOf(address)(uint256)", args: [address] }, decimals);
  const [usdc, kusd, holdsMinterRole, paused, fees] = await Promise.all([
    balance(a.usdc, 6),
    balance(a.kUSD, 18),
    read<boolean>({ to: a.kUSD, signature: "hasRole(bytes32,address)(bool)", args: [MINTER_ROLE, address] }),
    read<boolean>({ to: address, signature: "paused()(bool)" }),
    feeSchedule(r, a.usdc, address, key),
  ]);
  return { address, usdc, kusd, holdsMinterRole, paused, fees };
}

/** Only the three PSMs (reserves, kUSD held, minter role, pause, fee tiers): what the redemption planner needs. */
export async function readPsmSnapshots(
  r: PinnedReader,
  a: Pick<SnapshotAddresses, "usdc" | "kUSD" | "psms">,
): Promise<Record<PsmKey, PsmSnapshot>> {
  const { read } = tolerantReads(r);
  const [psmMint, psmRetiredMint, psmRedeemReserve] = await Promise.all(
    PSM_KEYS.map((k) => readPsm(r, read, a, k, a.psms[k])),
  );
  return { psmMint: psmMint!, psmRetiredMint: psmRetiredMint!, psmRedeemReserve: psmRedeemReserve! };
}
