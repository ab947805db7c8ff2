/**
 * Every on-chain read the reserves report makes, at one pinned block, each with its
 * reproduction command: fills the snapshot types of packages/core/src/reserves/por/snapshot.ts. Raw integers
 * only; conversion and formulas happen in the pure assembler.
 * A read that fails is `null` (reported as unknown), never a guess and never a 5xx.
 */

import type { FeeSchedule, FeeTier } from "@kusd/core";
import {
  type ChainSnapshot,
  type DepositVaultSnapshot,
  type HolderSnapshot,
  MINTER_ROLE,
  PSM_KEYS,
  PSM_VERSIONS,
  type PsmKey,
  type PsmSnapshot,
  type Read,
  type StakingVaultSnapshot,
} from "@kusd/core";
import type { Address, PublicClient } from "viem";
import { type ChainReadError, type PinnedReader, type ReadSpec, tolerantReads } from "./pinned-reader.js";

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

/** The arguments of dependent reads as last read, per chain client (see `dependent`). */
const lastSeenByClient = new WeakMap<PublicClient, Map<string, bigint>>();
const lastSeen = (client: PublicClient) => {
  const seen = lastSeenByClient.get(client) ?? new Map<string, bigint>();
  lastSeenByClient.set(client, seen);
  return seen;
};

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

/**
 * Every read of the reserves report at the reader's block, in two rounds (each one aggregate3 on
 * the wire): what needs nothing else, then what needs a value read in the first (a vault's
 * convertToAssets of one whole share and of its whole supply, the escrow shares' kUSD).
 * `timestamp` is the block's, when the caller read its header already.
 */
export async function readChainSnapshot(
  r: PinnedReader,
  a: SnapshotAddresses,
  timestamp?: number,
): Promise<ChainSnapshot> {
  const { read, failedReads, notDeployed } = tolerantReads(r);
  const last = lastSeen(r.client);

  /**
   * A read whose argument is another read's value (a vault's convertToAssets of its supply): asked
   * in the first round with the value last seen (a supply seldom changes from one block to the
   * next), and kept only when the other read returned exactly that; else asked again, in a second
   * round, with the value read. Null when the argument is unknown.
   */
  async function dependent(
    key: string,
    arg: Promise<bigint | null>,
    spec: (value: bigint) => ReadSpec,
    decimals: number,
  ): Promise<Read<bigint>> {
    const guess = last.get(key);
    const early = guess === undefined ? null : r.outcome<bigint>(spec(guess));
    const value = await arg;
    if (value === null) return null;
    last.set(key, value);
    const guessed = early ? await early : null;
    if (guessed?.ok && value === guess) {
      const got = guessed.value;
      return { value: got, command: (field) => r.command(spec(value), field, got, decimals) };
    }
    return read<bigint>(spec(value), decimals);
  }

  const balanceOf = (token: Address, holder: Address, decimals: number) =>
    read<bigint>({ to: token, signature: "balanceOf(address)(uint256)", args: [holder] }, decimals);
  const u = (to: Address, signature: string, decimals?: number | (() => number | undefined), args?: ReadSpec["args"]) =>
    read<bigint>({ to, signature, args }, decimals);

  const psm = (key: PsmKey) => readPsm(r, read, a, key, a.psms[key]);

  // Share decimals are read, never assumed: an ERC-4626 share need not match its asset.
  const shareDecimals = (address: Address) => read<number>({ to: address, signature: "decimals()(uint8)" });

  const depositVault = async (address: Address): Promise<DepositVaultSnapshot> => {
    let d: number | undefined;
    const [decimals, totalAssets, totalSupply, wethBalance, offChainAssets, l1Assets, hedgingReserve] =
      await Promise.all([
        shareDecimals(address),
        u(address, "totalAssets()(uint256)", 18),
        u(address, "totalSupply()(uint256)", () => d),
        balanceOf(a.weth, address, 18),
        u(address, "offChainAssets()(uint256)", 18),
        u(address, "l1Assets()(uint256)", 18),
        u(address, "hedgingReserve()(uint256)", 18),
      ]);
    d = decimals ? Number(decimals.value) : undefined;
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
    let d: number | undefined;
    const convertToAssets = (shares: bigint): ReadSpec => ({
      to: address,
      signature: "convertToAssets(uint256)(uint256)",
      args: [shares],
    });
    const decimalsRead = shareDecimals(address);
    const totalSupplyRead = u(address, "totalSupply()(uint256)", () => d);
    const [decimals, totalAssets, totalSupply, kusdBalance, listedShares, assetsPerShare, redeemable] =
      await Promise.all([
        decimalsRead,
        u(address, "totalAssets()(uint256)", 18),
        totalSupplyRead,
        balanceOf(a.kUSD, address, 18),
        Promise.all(
          a.listedAccounts.map(async (account) => ({
            account,
            shares: await read<bigint>(
              { to: address, signature: "balanceOf(address)(uint256)", args: [account] },
              () => d ?? 0,
            ),
          })),
        ),
        dependent(
          `${address}:decimals`,
          decimalsRead.then((x) => (x ? BigInt(x.value) : null)),
          (dec) => convertToAssets(10n ** dec),
          18,
        ),
        dependent(
          `${address}:totalSupply`,
          totalSupplyRead.then((x) => x?.value ?? null),
          convertToAssets,
          18,
        ),
      ]);
    d = decimals ? Number(decimals.value) : undefined;
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

  /** The operator's lending-escrow shares, and their kUSD (second round). */
  async function escrowPosition(escrow: Address) {
    const sharesRead = balanceOf(escrow, a.operator, 18);
    const [shares, kusd] = await Promise.all([
      sharesRead,
      dependent(
        `${escrow}:${a.operator}:shares`,
        sharesRead.then((x) => x?.value ?? null),
        (n) => ({ to: escrow, signature: "convertToAssets(uint256)(uint256)", args: [n] }),
        18,
      ),
    ]);
    return { shares, kusd };
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

  const [
    blockTimestamp,
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
    escrow,
    hedgeEth,
    hedgeWeth,
    price,
  ] = await Promise.all([
    timestamp ?? r.client.getBlock({ blockNumber: r.blockNumber }).then((b) => Number(b.timestamp)),
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
    a.lendingEscrowKUSD ? escrowPosition(a.lendingEscrowKUSD) : { shares: null, kusd: null },
    a.hedgeWatchOnly ? nativeBalance(a.hedgeWatchOnly) : Promise.resolve(null),
    a.hedgeWatchOnly ? balanceOf(a.weth, a.hedgeWatchOnly, 18) : Promise.resolve(null),
    a.ethUsdFeed ? ethUsd(a.ethUsdFeed) : Promise.resolve(null),
  ]);

  return {
    blockNumber: r.blockNumber,
    blockTimestamp,
    kusdTotalSupply,
    psms: { psmMint, psmRetiredMint, psmRedeemReserve },
    vaultV1,
    vaultV2,
    skUSD,
    skUSDDeprecated,
    insuranceFund,
    treasury,
    multisig: { ...multisig, threshold, owners },
    operator: { address: a.operator, kusd: operatorKusd, escrowShares: escrow.shares, escrowKusd: escrow.kusd },
    hedgeWatchOnly: a.hedgeWatchOnly ? { address: a.hedgeWatchOnly, eth: hedgeEth, weth: hedgeWeth } : null,
    ethUsd: price,
    failedReads,
    notDeployed,
  };
}
