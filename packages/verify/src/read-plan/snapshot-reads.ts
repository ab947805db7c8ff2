/**
 * The reads the reserves report is made of, each at the pinned block with its reproduction
 * command, tolerant (a failed read is null and listed in failedReads or notDeployed, never a
 * guess). readChainSnapshot lists which of them it asks; this says how each one reads.
 */
import type { DepositVaultSnapshot, HolderSnapshot, PsmKey, PsmSnapshot, Read, StakingVaultSnapshot } from "@kusd/core";
import type { Address, PublicClient } from "viem";
import type { SnapshotAddresses } from "./addresses.js";
import { type ChainReadError, type PinnedReader, type ReadSpec, tolerantReads } from "./pinned-reader.js";
import { readPsm } from "./psm-reads.js";

/** The arguments of dependent reads as last read, per chain client (see `dependent`). */
const lastSeenByClient = new WeakMap<PublicClient, Map<string, bigint>>();
const lastSeen = (client: PublicClient) => {
  const seen = lastSeenByClient.get(client) ?? new Map<string, bigint>();
  lastSeenByClient.set(client, seen);
  return seen;
};

const LATEST_ROUND = "latestRoundData()(uint80,int256,uint256,uint256,uint80)";

export type EthUsdRead = {
  answer: Read<bigint>;
  decimals: number;
  updatedAt: number | null;
  address: Address;
};

export class SnapshotReads {
  readonly failedReads: string[];
  readonly notDeployed: ReturnType<typeof tolerantReads>["notDeployed"];
  private readonly read: ReturnType<typeof tolerantReads>["read"];
  private readonly last: Map<string, bigint>;

  constructor(
    private readonly r: PinnedReader,
    private readonly a: SnapshotAddresses,
  ) {
    const { read, failedReads, notDeployed } = tolerantReads(r);
    this.read = read;
    this.failedReads = failedReads;
    this.notDeployed = notDeployed;
    this.last = lastSeen(r.client);
  }

  blockTimestamp(): Promise<number> {
    return this.r.client.getBlock({ blockNumber: this.r.blockNumber }).then((b) => Number(b.timestamp));
  }

  /** An integer getter; `decimals` (or a function of a read still under way) for its command. */
  uint(to: Address, signature: string, decimals?: number | (() => number | undefined), args?: ReadSpec["args"]) {
    return this.read<bigint>({ to, signature, args }, decimals);
  }

  value<T>(to: Address, signature: string): Promise<Read<T>> {
    return this.read<T>({ to, signature });
  }

  balanceOf(token: Address, holder: Address, decimals: number | (() => number | undefined)) {
    return this.read<bigint>({ to: token, signature: "balanceOf(address)(uint256)", args: [holder] }, decimals);
  }

  psm(key: PsmKey): Promise<PsmSnapshot> {
    return readPsm(this.r, this.read, this.a, key, this.a.psms[key]);
  }

  /**
   * A read whose argument is another read's value (a vault's convertToAssets of its supply): asked
   * in the first round with the value last seen (a supply seldom changes from one block to the
   * next), and kept only when the other read returned exactly that; else asked again, in a second
   * round, with the value read. Null when the argument is unknown.
   */
  async dependent(
    key: string,
    arg: Promise<bigint | null>,
    spec: (value: bigint) => ReadSpec,
    decimals: number,
  ): Promise<Read<bigint>> {
    const guess = this.last.get(key);
    const early = guess === undefined ? null : this.r.outcome<bigint>(spec(guess));
    const value = await arg;
    if (value === null) return null;
    this.last.set(key, value);
    const guessed = early ? await early : null;
    if (guessed?.ok && value === guess) {
      const got = guessed.value;
      return { value: got, command: (field) => this.r.command(spec(value), field, got, decimals) };
    }
    return this.read<bigint>(spec(value), decimals);
  }

  /** Share decimals are read, never assumed: an ERC-4626 share need not match its asset. */
  private shareDecimals(address: Address) {
    return this.read<number>({ to: address, signature: "decimals()(uint8)" });
  }

  async depositVault(address: Address): Promise<DepositVaultSnapshot> {
    let d: number | undefined;
    const [decimals, totalAssets, totalSupply, wethBalance, offChainAssets, l1Assets, hedgingReserve] =
      await Promise.all([
        this.shareDecimals(address),
        this.uint(address, "totalAssets()(uint256)", 18),
        this.uint(address, "totalSupply()(uint256)", () => d),
        this.balanceOf(this.a.weth, address, 18),
        this.uint(address, "offChainAssets()(uint256)", 18),
        this.uint(address, "l1Assets()(uint256)", 18),
        this.uint(address, "hedgingReserve()(uint256)", 18),
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
  }

  async stakingVault(address: Address): Promise<StakingVaultSnapshot> {
    let d: number | undefined;
    const convertToAssets = (shares: bigint): ReadSpec => ({
      to: address,
      signature: "convertToAssets(uint256)(uint256)",
      args: [shares],
    });
    const decimalsRead = this.shareDecimals(address);
    const totalSupplyRead = this.uint(address, "totalSupply()(uint256)", () => d);
    const [decimals, totalAssets, totalSupply, kusdBalance, listedShares, assetsPerShare, redeemable] =
      await Promise.all([
        decimalsRead,
        this.uint(address, "totalAssets()(uint256)", 18),
        totalSupplyRead,
        this.balanceOf(this.a.kUSD, address, 18),
        Promise.all(
          this.a.listedAccounts.map(async (account) => ({
            account,
            shares: await this.balanceOf(address, account, () => d ?? 0),
          })),
        ),
        this.dependent(
          `${address}:decimals`,
          decimalsRead.then((x) => (x ? BigInt(x.value) : null)),
          (dec) => convertToAssets(10n ** dec),
          18,
        ),
        this.dependent(
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
  }

  async holder(address: Address): Promise<HolderSnapshot> {
    const [usdc, weth] = await Promise.all([
      this.balanceOf(this.a.usdc, address, 6),
      this.balanceOf(this.a.weth, address, 18),
    ]);
    return { address, usdc, weth };
  }

  async nativeBalance(address: Address): Promise<Read<bigint>> {
    try {
      const value = await this.r.nativeBalance(address);
      return { value, command: (field) => this.r.balanceCommand(address, field, value) };
    } catch (e) {
      this.failedReads.push(
        `eth_getBalance ${address}: ${(e as ChainReadError).details?.cause ?? (e as Error).message}`,
      );
      return null;
    }
  }

  /** The operator's lending-escrow shares, and their kUSD (second round). */
  async escrowPosition(escrow: Address, owner: Address): Promise<{ shares: Read<bigint>; kusd: Read<bigint> }> {
    const sharesRead = this.balanceOf(escrow, owner, 18);
    const [shares, kusd] = await Promise.all([
      sharesRead,
      this.dependent(
        `${escrow}:${owner}:shares`,
        sharesRead.then((x) => x?.value ?? null),
        (n) => ({ to: escrow, signature: "convertToAssets(uint256)(uint256)", args: [n] }),
        18,
      ),
    ]);
    return { shares, kusd };
  }

  async ethUsd(feed: Address): Promise<EthUsdRead> {
    const [round, decimals] = await Promise.all([
      this.value<readonly [bigint, bigint, bigint, bigint, bigint]>(feed, LATEST_ROUND),
      this.value<number>(feed, "decimals()(uint8)"),
    ]);
    if (!round || !decimals) return { answer: null, decimals: 8, updatedAt: null, address: feed };
    const answer = round.value[1];
    return {
      answer: {
        value: answer,
        command: (field: string) =>
          this.r.command({ to: feed, signature: LATEST_ROUND }, field, `answer ${answer}`, Number(decimals.value)),
      },
      decimals: Number(decimals.value),
      updatedAt: Number(round.value[3]),
      address: feed,
    };
  }
}
