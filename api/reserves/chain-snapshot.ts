/**
 * Every on-chain read the reserves report makes, at one pinned block, each with its
 * reproduction command: fills the snapshot types of core/reserves/por/snapshot.ts. Raw integers
 * only; conversion and formulas happen in the pure assembler.
 * A read that fails is `null` (reported as unknown), never a guess and never a 5xx.
 */
import type { Address } from "viem";
import { PSM_VERSIONS, type PsmKey } from "../../core/network/types.js";
import {
  type ChainSnapshot,
  type DepositVaultSnapshot,
  type HolderSnapshot,
  MINTER_ROLE,
  PSM_KEYS,
  type PsmSnapshot,
  type Read,
  type StakingVaultSnapshot,
} from "../../core/reserves/por/snapshot.js";
import type { FeeSchedule, FeeTier } from "../../core/reserves/redemption-routing.js";
import { type ChainReadError, type PinnedReader, type ReadSpec, tolerantReads } from "../io/pinned-reader.js";

// The API's route modules import these constants from here.
export { MINTER_ROLE, PSM_KEYS };

export type SnapshotAddresses = {
  kUSD: Address;
  usdc: Address;
  weth: Address;
  psms: Record<PsmKey, Address>;
  vaultV1: Address;
  vaultV2: Address;
  skUSD: Address;
  skUSDDeprecated: Address;
  insuranceFund: Address;
  treasury: Address;
  multisig: Address;
  operator: Address;
  hedgeWatchOnly: Address | null;
  ethUsdFeed: Address | null;
  lendingEscrowKUSD: Address | null;
  /** Registry-listed accounts (their shares of the superseded vault are protocol-owned). */
  listedAccounts: Address[];
};

type TolerantRead = ReturnType<typeof tolerantReads>["read"];

/** The tiers as stored (the public array, read until it ends): order matters to the fee rule. */
async function feeTiers(r: PinnedReader, usdc: Address, psm: Address): Promise<FeeTier[]> {
  const tiers: FeeTier[] = [];
  for (let i = 0; i < 20; i++) {
    try {
      const [threshold, feeBps] = await r.call<[bigint, bigint]>({
        to: psm,
        signature: "tieredFees(address,uint256)(uint256,uint256)",
        args: [usdc, BigInt(i)],
      });
      tiers.push({ threshold, feeBps });
    } catch {
      break; // past the end of the array
    }
  }
  return tiers;
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

async function readPsm(
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

export async function readChainSnapshot(r: PinnedReader, a: SnapshotAddresses): Promise<ChainSnapshot> {
  const { read, failedReads, notDeployed } = tolerantReads(r);

  const balanceOf = (token: Address, holder: Address, decimals: number) =>
    read<bigint>({ to: token, signature: "balanceOf(address)(uint256)", args: [holder] }, decimals);
  const u = (to: Address, signature: string, decimals?: number, args?: ReadSpec["args"]) =>
    read<bigint>({ to, signature, args }, decimals);

  const psm = (key: PsmKey) => readPsm(r, read, a, key, a.psms[key]);

  // Share decimals are read, never assumed: an ERC-4626 share need not match its asset.
  const shareDecimals = (address: Address) => read<number>({ to: address, signature: "decimals()(uint8)" });

  const depositVault = async (address: Address): Promise<DepositVaultSnapshot> => {
    const decimals = await shareDecimals(address);
    const [totalAssets, totalSupply, wethBalance, offChainAssets, l1Assets, hedgingReserve] = await Promise.all([
      u(address, "totalAssets()(uint256)", 18),
      u(address, "totalSupply()(uint256)", decimals ? Number(decimals.value) : undefined),
      balanceOf(a.weth, address, 18),
      u(address, "offChainAssets()(uint256)", 18),
      u(address, "l1Assets()(uint256)", 18),
      u(address, "hedgingReserve()(uint256)", 18),
    ]);
    return {
      address,
      shareDecimals: decimals,
      totalAssets,
      totalSupply,
      wethBalance,
      offChainAssets,
      l1Assets,
      hedgingReserve,
    };
  };

  const stakingVault = async (address: Address): Promise<StakingVaultSnapshot> => {
    const decimals = await shareDecimals(address);
    const d = decimals ? Number(decimals.value) : undefined;
    const [totalAssets, totalSupply, kusdBalance, assetsPerShare, listedShares] = await Promise.all([
      u(address, "totalAssets()(uint256)", 18),
      u(address, "totalSupply()(uint256)", d),
      balanceOf(a.kUSD, address, 18),
      d === undefined ? Promise.resolve(null) : u(address, "convertToAssets(uint256)(uint256)", 18, [10n ** BigInt(d)]),
      Promise.all(
        a.listedAccounts.map(async (account) => ({ account, shares: await balanceOf(address, account, d ?? 0) })),
      ),
    ]);
    const redeemable = totalSupply
      ? await u(address, "convertToAssets(uint256)(uint256)", 18, [totalSupply.value])
      : null;
    return {
      address,
      shareDecimals: decimals,
      totalAssets,
      totalSupply,
      kusdBalance,
      redeemable,
      assetsPerShare,
      listedShares,
    };
  };

  const holder = async (address: Address): Promise<HolderSnapshot> => {
    const [usdc, weth] = await Promise.all([balanceOf(a.usdc, address, 6), balanceOf(a.weth, address, 18)]);
    return { address, usdc, weth };
  };

  async function nativeBalance(address: Address): Promise<Read<bigint>> {
    try {
      const value = await r.nativeBalance(address);
      return { value, command: (field) => r.balanceCommand(address, field, value) };
    } catch (e) {
      failedReads.push(`eth_getBalance ${address}: ${(e as ChainReadError).details?.cause ?? (e as Error).message}`);
      return null;
    }
  }

  async function ethUsd(feed: Address) {
    const [round, decimals] = await Promise.all([
      read<readonly [bigint, bigint, bigint, bigint, bigint]>({
        to: feed,
        signature: "latestRoundData()(uint80,int256,uint256,uint256,uint80)",
      }),
      read<number>({ to: feed, signature: "decimals()(uint8)" }),
    ]);
    if (!round || !decimals) return { answer: null, decimals: 8, updatedAt: null, address: feed };
    const spec: ReadSpec = { to: feed, signature: "latestRoundData()(uint80,int256,uint256,uint256,uint80)" };
    const answer = round.value[1];
    return {
      answer: {
        value: answer,
        command: (field: string) => r.command(spec, field, `answer ${answer}`, Number(decimals.value)),
      },
      decimals: Number(decimals.value),
      updatedAt: Number(round.value[3]),
      address: feed,
    };
  }

  const block = await r.client.getBlock({ blockNumber: r.blockNumber });
  const [
    kusdTotalSupply,
    psmMint,
    psmRetiredMint,
    psmRedeemReserve,
    vaultV1,
    vaultV2,
    skUSD,
    skUSDDeprecated,
    insuranceFund,
    treasury,
    multisig,
    threshold,
    owners,
    operatorKusd,
    escrowShares,
    hedgeEth,
    hedgeWeth,
    price,
  ] = await Promise.all([
    u(a.kUSD, "totalSupply()(uint256)", 18),
    psm("psmMint"),
    psm("psmRetiredMint"),
    psm("psmRedeemReserve"),
    depositVault(a.vaultV1),
    depositVault(a.vaultV2),
    stakingVault(a.skUSD),
    stakingVault(a.skUSDDeprecated),
    holder(a.insuranceFund),
    holder(a.treasury),
    holder(a.multisig),
    u(a.multisig, "getThreshold()(uint256)"),
    read<readonly Address[]>({ to: a.multisig, signature: "getOwners()(address[])" }),
    balanceOf(a.kUSD, a.operator, 18),
    a.lendingEscrowKUSD ? balanceOf(a.lendingEscrowKUSD, a.operator, 18) : Promise.resolve(null),
    a.hedgeWatchOnly ? nativeBalance(a.hedgeWatchOnly) : Promise.resolve(null),
    a.hedgeWatchOnly ? balanceOf(a.weth, a.hedgeWatchOnly, 18) : Promise.resolve(null),
    a.ethUsdFeed ? ethUsd(a.ethUsdFeed) : Promise.resolve(null),
  ]);
  const escrowKusd =
    a.lendingEscrowKUSD && escrowShares
      ? await u(a.lendingEscrowKUSD, "convertToAssets(uint256)(uint256)", 18, [escrowShares.value])
      : null;

  return {
    blockNumber: r.blockNumber,
    blockTimestamp: Number(block.timestamp),
    kusdTotalSupply,
    psms: { psmMint, psmRetiredMint, psmRedeemReserve },
    vaultV1,
    vaultV2,
    skUSD,
    skUSDDeprecated,
    insuranceFund,
    treasury,
    multisig: { ...multisig, threshold, owners },
    operator: { address: a.operator, kusd: operatorKusd, escrowShares, escrowKusd },
    hedgeWatchOnly: a.hedgeWatchOnly ? { address: a.hedgeWatchOnly, eth: hedgeEth, weth: hedgeWeth } : null,
    ethUsd: price,
    failedReads,
    notDeployed,
  };
}
