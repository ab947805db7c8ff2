/**
 * The scripted history of the operator's world on the base devnet chain, from 2026-05-14 to
 * shortly before the present: deployments in their eras, MINTER_ROLE moving between PSMs,
 * mints, redemptions against all three PSMs, staking and yield, the vault v1 mirror, treasury
 * and multisig movements, a PSM top-up, a fee skim, a flash loan, a disclosed venue deposit,
 * and exactly one transfer that breaks the account-registry rule.
 */
import { keccak256, maxUint256, parseEther, stringToHex, zeroAddress, zeroHash, type Abi, type Address, type Hex } from "viem";
import { loadArtifact } from "./artifacts.js";
import { ChainDriver, encode, type Receipt, type Tx } from "./driver.js";
import type { ContractRecord, Deployment, RegistryVersionConfig, RoleGrantRecord } from "./deployment.js";
import { namedKeys, userKey, type DevnetKey, type KeyName } from "./keys.js";
import { safeTxHash, signSafeTx } from "./safe.js";
import { DATES, DAY, HISTORY_START, HOUR, LAST_STORY_DATE, iso } from "./timeline.js";
import { planUserActivity, type ActivityDay } from "./users.js";
import { accountAt, MARGIN_DEPOSITS } from "./venue/hedge.js";
import { ethPriceAt } from "./venue/market.js";
import { hashUnit } from "./rng.js";

export const MINTER_ROLE = keccak256(stringToHex("MINTER_ROLE"));
export const DEFAULT_ADMIN_ROLE = `0x${"00".repeat(32)}` as Hex;
const MANAGER_ROLE = keccak256(stringToHex("MANAGER_ROLE"));
const STRATEGIST_ROLE = keccak256(stringToHex("STRATEGIST_ROLE"));

/** The operator's TimelockController minimum delay (getMinDelay() = 172800 on Base). */
export const TIMELOCK_DELAY = 172_800n;

export const usdc = (n: number | bigint) => BigInt(n) * 1_000_000n;
export const kusd = (n: number | bigint) => BigInt(n) * 10n ** 18n;

/**
 * The fee ladder configured on the deployed PSMs (underwriting memo, section 3): the flat
 * `swapFees[USDC]` of 10 bps below 50,000 USDC, then tiers as LOWER bounds in USDC units,
 * stored strictly descending (the v3 and live PSMs refuse any other order): from 1,000,000
 * 5 bps, from 250,000 7 bps, from 50,000 8 bps. The same ladder applies to mints.
 */
export const SWAP_FEE_BPS = 10n;
export const FEE_TIERS = [
  { threshold: usdc(1_000_000), feeBps: 5n },
  { threshold: usdc(250_000), feeBps: 7n },
  { threshold: usdc(50_000), feeBps: 8n },
] as const;

/** Which devnet contract reproduces each deployed PSM (see devnet/contracts). */
export const PSM_ARTIFACTS = { psmMint: "KUSDPSM", psmRetiredMint: "KUSDPSMV3", psmRedeemReserve: "KUSDPSMV1" } as const;
const PSM_KEYS = Object.keys(PSM_ARTIFACTS) as (keyof typeof PSM_ARTIFACTS)[];

/** The depeg check's oracle may be this old (the v3 and live PSMs default to one hour). */
const USDC_FEED_MAX_DELAY = 48n * 3_600n;

/** Padding after the history so Ponder's finality depth (30 blocks on 8453) is passed. */
export const BASE_PADDING_BLOCKS = 40;
export const ETHEREUM_PADDING_BLOCKS = 80;

type Job = { at: number; order: number; name: string; run: () => Promise<void> };

export type HistoryOptions = { scale: number; now: number; log?: (line: string) => void };

export type BaseHistoryResult = Pick<Deployment, "roles" | "landmarks" | "registry" | "signers" | "users"> & {
  contracts: Record<string, ContractRecord>;
  historyEndBlock: number;
};

export class BaseHistory {
  readonly keys: Record<KeyName, DevnetKey>;
  readonly contracts: Record<string, ContractRecord> = {};
  readonly roles: RoleGrantRecord[] = [];
  readonly landmarks: Deployment["landmarks"] = {};
  private jobs: Job[] = [];
  private order = 0;
  private userCount = 0;

  constructor(
    readonly d: ChainDriver,
    readonly chainId: number,
    readonly options: HistoryOptions,
  ) {
    this.keys = namedKeys();
  }

  // ------------------------------------------------------------------ helpers

  private log(line: string) {
    this.options.log?.(line);
  }

  addr(name: string): Address {
    const c = this.contracts[name];
    if (!c) throw new Error(`contract ${name} is not deployed yet`);
    return c.address;
  }

  private abiOf(name: string): Abi {
    return loadArtifact(this.contracts[name]!.artifact).abi;
  }

  private async deploy(name: string, artifact: string, from: DevnetKey, args: readonly unknown[]) {
    const { abi, bytecode } = loadArtifact(artifact);
    const receipt = await this.d.deploy(from.address, abi, bytecode, args);
    const block = await this.d.client.getBlock({ blockNumber: receipt.blockNumber });
    this.contracts[name] = {
      address: receipt.contractAddress,
      block: Number(receipt.blockNumber),
      timestamp: Number(block.timestamp),
      artifact,
      creationTx: receipt.transactionHash,
    };
    this.log(`  deployed ${name} at ${receipt.contractAddress}`);
    return receipt.contractAddress;
  }

  tx(from: DevnetKey | Address, contract: string, fn: string, args: readonly unknown[] = [], value?: bigint): Tx {
    return {
      from: typeof from === "string" ? from : from.address,
      to: this.addr(contract),
      data: encode(this.abiOf(contract), fn, args),
      value,
    };
  }

  private send(from: DevnetKey | Address, contract: string, fn: string, args: readonly unknown[] = [], value?: bigint) {
    return this.d.send(this.tx(from, contract, fn, args, value));
  }

  async read<T>(contract: string, fn: string, args: readonly unknown[] = []): Promise<T> {
    return (await this.d.client.readContract({ address: this.addr(contract), abi: this.abiOf(contract), functionName: fn, args })) as T;
  }

  /** A call executed by the 2-of-3 multisig: two owner signatures over the SafeTx hash. */
  private async safe(contract: string, fn: string, args: readonly unknown[] = []): Promise<Receipt> {
    const to = this.addr(contract);
    const data = encode(this.abiOf(contract), fn, args);
    const safe = this.addr("multisig");
    const nonce = await this.read<bigint>("multisig", "nonce");
    const hash = safeTxHash({ chainId: this.chainId, safe, to, value: 0n, data, nonce });
    const signatures = await signSafeTx(hash, [this.keys.operator.privateKey, this.keys.safeOwner2.privateKey]);
    return this.send(this.keys.operator, "multisig", "execTransaction", [to, 0n, data, 0, 0n, 0n, 0n, zeroAddress, zeroAddress, signatures]);
  }

  /**
   * An admin call on kUSD or a PSM after the handover: the Safe schedules it on the timelock
   * at `at`, and executes it once the 48 h delay has passed (scheduled now, so the job list
   * stays in time order). `args` are computed when the call is proposed.
   */
  private timelocked(at: number, name: string, contract: string, fn: string, args: () => Promise<readonly unknown[]> | readonly unknown[], landmark?: string) {
    const salt = keccak256(stringToHex(name));
    let call: { to: Address; data: Hex } | undefined;
    this.schedule(at, `${name} (proposed to the timelock)`, async () => {
      call = { to: this.addr(contract), data: encode(this.abiOf(contract), fn, await args()) };
      await this.safe("timelock", "schedule", [call.to, 0n, call.data, zeroHash, salt, TIMELOCK_DELAY]);
    });
    this.schedule(at + Number(TIMELOCK_DELAY) + HOUR, `${name} (executed by the timelock)`, async () => {
      const receipt = await this.safe("timelock", "execute", [call!.to, 0n, call!.data, zeroHash, salt]);
      if (landmark) this.landmark(landmark, receipt);
    });
  }

  private landmark(name: string, receipt: Receipt) {
    this.landmarks[name] = { tx: receipt.transactionHash, block: Number(receipt.blockNumber), timestamp: this.d.now - this.d.blockTime };
  }

  private async grantMinter(via: "deployer" | "safe", holder: string) {
    const receipt =
      via === "safe"
        ? await this.safe("kUSD", "grantRole", [MINTER_ROLE, this.addr(holder)])
        : await this.send(this.keys.deployer, "kUSD", "grantRole", [MINTER_ROLE, this.addr(holder)]);
    this.roles.push({ role: "MINTER_ROLE", roleHash: MINTER_ROLE, contract: "kUSD", holder: this.addr(holder), grantedBlock: Number(receipt.blockNumber), revokedBlock: null });
    this.landmark(`minterGranted:${holder}`, receipt);
  }

  private async revokeMinter(holder: string) {
    const receipt = await this.safe("kUSD", "revokeRole", [MINTER_ROLE, this.addr(holder)]);
    const grant = this.roles.find((r) => r.holder === this.addr(holder) && r.role === "MINTER_ROLE" && r.revokedBlock === null);
    if (grant) grant.revokedBlock = Number(receipt.blockNumber);
    this.landmark(`minterRevoked:${holder}`, receipt);
  }

  /**
   * Deployer configures a fresh PSM as the operator's are configured on Base (fee ladder,
   * minting on, the solvency gate off, the depeg gate on with a USDC / USD feed), then hands
   * both admin roles to the multisig. PSM v1 has no treasury, no solvency flag and no depeg
   * flag: without an oracle it skips the depeg check.
   */
  private async deployPsm(name: keyof typeof PSM_ARTIFACTS, treasury: string | null) {
    const deployer = this.keys.deployer;
    await this.deploy(name, PSM_ARTIFACTS[name], deployer, [this.addr("kUSD"), deployer.address]);
    await this.send(deployer, name, "addStable", [this.addr("usdc"), SWAP_FEE_BPS, usdc(10_000_000_000)]);
    await this.send(deployer, name, "setTieredFees", [this.addr("usdc"), FEE_TIERS]);
    await this.send(deployer, name, "setMintingEnabled", [true]);
    if (treasury) {
      await this.send(deployer, name, "setTreasury", [this.addr(treasury)]);
      await this.send(deployer, name, "setSolvencyCheckDisabled", [true]);
      await this.send(deployer, name, "setOracle", [this.addr("usdc"), this.addr("usdcUsdFeed")]);
      await this.send(deployer, name, "setMaxOracleDelay", [this.addr("usdc"), USDC_FEED_MAX_DELAY]);
    }
    const safe = this.addr("multisig");
    await this.send(deployer, name, "grantRole", [DEFAULT_ADMIN_ROLE, safe]);
    await this.send(deployer, name, "grantRole", [MANAGER_ROLE, safe]);
    await this.send(deployer, name, "renounceRole", [MANAGER_ROLE, deployer.address]);
    await this.send(deployer, name, "renounceRole", [DEFAULT_ADMIN_ROLE, deployer.address]);
  }

  private livePsm(t: number): string {
    return t < DATES.ceremony ? "psmRedeemReserve" : t < DATES.mintPsmRedeploy ? "psmRetiredMint" : "psmMint";
  }

  private liveStakingVault(t: number): string {
    return t < DATES.skusdRedeploy ? "skUSDDeprecated" : "skUSD";
  }

  /** One uint256 view per argument list, batched into few JSON-RPC requests. */
  private async readMany(contract: string, fn: string, argLists: readonly unknown[][]): Promise<bigint[]> {
    const abi = this.abiOf(contract);
    const to = this.addr(contract);
    const out: bigint[] = [];
    for (let i = 0; i < argLists.length; i += 500) {
      const results = await this.d.rpcBatch<Hex>(
        argLists.slice(i, i + 500).map((args) => ({ method: "eth_call", params: [{ to, data: encode(abi, fn, args) }, "latest"] })),
      );
      out.push(...results.map((r) => BigInt(r)));
    }
    return out;
  }

  private balances(contract: string, holders: Address[]): Promise<bigint[]> {
    return this.readMany(contract, "balanceOf", holders.map((h) => [h]));
  }

  /** Mint kUSD for `who` through the live PSM: faucet USDC, approve, swap. */
  /** One round of the ETH / USD feed at the market model's price for the current chain time. */
  private async pushEthPrice() {
    await this.send(this.keys.oracleKeeper, "ethUsdFeed", "submit", [BigInt(Math.round(ethPriceAt(this.d.now) * 100)) * 10n ** 6n]);
    // USDC / USD, read by the PSMs' depeg check: at par, with the feed's heartbeat.
    await this.send(this.keys.oracleKeeper, "usdcUsdFeed", "submit", [100_000_000n]);
  }

  private async mintFor(who: DevnetKey, amountUsdc: bigint, psm = this.livePsm(this.d.now)) {
    await this.send(this.keys.circle, "usdc", "mint", [who.address, amountUsdc]);
    await this.send(who, "usdc", "approve", [this.addr(psm), maxUint256]);
    return this.send(who, psm, "swapStableForKUSD", [this.addr("usdc"), amountUsdc]);
  }

  private schedule(at: number, name: string, run: () => Promise<void>) {
    this.jobs.push({ at, order: this.order++, name, run });
  }

  // ------------------------------------------------------------------ the story

  async run(): Promise<BaseHistoryResult> {
    const k = this.keys;
    const end = this.options.now - 2 * HOUR;
    if (end < LAST_STORY_DATE) {
      throw new Error(`the scripted story runs to ${new Date(LAST_STORY_DATE * 1000).toISOString()}; the clock says ${new Date(this.options.now * 1000).toISOString()}`);
    }
    await this.d.rpc("anvil_autoImpersonateAccount", [true]);
    await this.d.setBalances(Object.values(k).map((x) => x.address), parseEther("10000"));
    // The founder float is disclosed in the reports: give it a plausible balance, not a gas float.
    await this.d.setBalances([k.hedgeWatchOnly.address], parseEther("12"));

    this.scheduleStory();
    this.schedulePeriodic(end);
    this.scheduleUsers(end);

    this.jobs.sort((a, b) => a.at - b.at || a.order - b.order);
    for (const job of this.jobs) {
      if (job.at > end) break;
      this.d.at(job.at);
      await job.run();
    }
    // Padding blocks end a few minutes before the wall clock: the chain never runs ahead of it.
    this.d.at(this.options.now - BASE_PADDING_BLOCKS * this.d.blockTime - 300);
    const historyEndBlock = Number(await this.d.blockNumber());
    await this.d.mineEmpty(BASE_PADDING_BLOCKS);
    await this.d.rpc("anvil_autoImpersonateAccount", [false]);

    return {
      contracts: this.contracts,
      roles: this.roles,
      landmarks: this.landmarks,
      registry: { operator: k.operator.address, versions: this.registryVersions() },
      signers: { operator: k.operator.address, attestation: k.attestationSigner.address, attestationFrom: DATES.attestationKeyFrom },
      users: { count: this.userCount, firstIndex: 0 },
      historyEndBlock,
    };
  }

  private scheduleStory() {
    const k = this.keys;
    const S = (at: number, name: string, run: () => Promise<void>) => this.schedule(at, name, run);

    S(DATES.genesis, "external tokens", async () => {
      await this.deploy("usdc", "FiatTokenV2", k.circle, [k.circle.address]);
      await this.deploy("weth", "WETH9", k.circle, []);
      await this.deploy("wstETH", "RatedLST", k.oracleKeeper, ["Wrapped liquid staked Ether 2.0", "wstETH", k.oracleKeeper.address, parseEther("1.2150")]);
      await this.deploy("cbETH", "RatedLST", k.oracleKeeper, ["Coinbase Wrapped Staked ETH", "cbETH", k.oracleKeeper.address, parseEther("1.0950")]);
      // The ETH / USD feed the reports price ETH with (Chainlink-style, 8 decimals).
      await this.deploy("ethUsdFeed", "PriceFeed", k.oracleKeeper, [8, "ETH / USD", k.oracleKeeper.address]);
      await this.deploy("usdcUsdFeed", "PriceFeed", k.oracleKeeper, [8, "USDC / USD", k.oracleKeeper.address]);
      await this.pushEthPrice();
      await this.deploy("venueBridge", "VenueBridge", k.venueOperator, [this.addr("usdc"), k.venueOperator.address]);
      await this.deploy("flashBorrower", "FlashBorrower", k.arbitrageur, []);
    });

    S(DATES.genesis, "protocol genesis", async () => {
      const dep = k.deployer;
      await this.deploy("multisig", "OperatorSafe", dep, [[k.operator.address, k.safeOwner2.address, k.safeOwner3.address], 2n]);
      await this.deploy("kUSD", "KUSD", dep, [dep.address]);
      // kUSD's constructor makes its admin a minter too; the deployer gives that up at genesis.
      this.roles.push({ role: "MINTER_ROLE", roleHash: MINTER_ROLE, contract: "kUSD", holder: dep.address, grantedBlock: this.contracts.kUSD!.block, revokedBlock: null });
      await this.deploy("treasuryV1", "KerneTreasury", dep, [zeroAddress, zeroAddress, zeroAddress]);
      await this.send(dep, "treasuryV1", "transferOwnership", [this.addr("multisig")]);
      await this.deploy("insuranceFund", "KerneInsuranceFund", dep, [this.addr("usdc"), this.addr("multisig")]);
      await this.deployPsm("psmRedeemReserve", null);
      await this.grantMinter("deployer", "psmRedeemReserve");
      const renounced = await this.send(dep, "kUSD", "renounceRole", [MINTER_ROLE, dep.address]);
      this.roles.find((r) => r.holder === dep.address && r.role === "MINTER_ROLE")!.revokedBlock = Number(renounced.blockNumber);
      await this.send(dep, "kUSD", "grantRole", [DEFAULT_ADMIN_ROLE, this.addr("multisig")]);
      await this.send(dep, "kUSD", "renounceRole", [DEFAULT_ADMIN_ROLE, dep.address]);
      await this.deploy("skUSDDeprecated", "StakedKUSDV1", dep, [this.addr("kUSD"), this.addr("multisig")]);
      await this.safe("skUSDDeprecated", "grantRole", [STRATEGIST_ROLE, k.operator.address]);
      await this.deploy("vaultV1", "KerneVaultV1", dep, [this.addr("weth"), "Kerne ETH Vault", "kETH", this.addr("multisig"), k.operator.address, k.operator.address]);
    });

    S(DATES.genesis + 2 * HOUR, "founder seeds", async () => {
      await this.mintFor(k.operator, usdc(400_000));
      await this.send(k.operator, "kUSD", "approve", [this.addr("skUSDDeprecated"), maxUint256]);
      await this.send(k.operator, "skUSDDeprecated", "deposit", [kusd(300_000), k.operator.address]);
      await this.send(k.operator, "weth", "deposit", [], parseEther("30"));
      await this.send(k.operator, "weth", "approve", [this.addr("vaultV1"), maxUint256]);
      await this.send(k.operator, "vaultV1", "deposit", [parseEther("25"), k.operator.address]);
      await this.send(k.operator, "vaultV1", "updateOffChainAssets", [parseEther("3")]);
      await this.send(k.operator, "vaultV1", "updateHedgingReserve", [parseEther("1.5")]);
      await this.send(k.hedgeWatchOnly, "weth", "deposit", [], parseEther("8"));
      // The external holder whose dust stays in the superseded vault.
      await this.mintFor(k.externalDustHolder, usdc(1_000));
      await this.send(k.externalDustHolder, "kUSD", "approve", [this.addr("skUSDDeprecated"), maxUint256]);
      // 1,000 USDC mints 999 kUSD (10 bps below 50,000 USDC): stake all of it.
      await this.send(k.externalDustHolder, "skUSDDeprecated", "deposit", [kusd(999), k.externalDustHolder.address]);
    });

    // Vault v1 lets WETH out only through its queue and the admin's sweep (withdraw and redeem
    // revert): an outside depositor leaves through the queue, the multisig sweeps to the
    // exchange deposit address (the operator's venue account).
    S(DATES.genesis + 3 * HOUR, "outside depositor enters vault v1", async () => {
      await this.send(k.vaultDepositor, "weth", "deposit", [], parseEther("2"));
      await this.send(k.vaultDepositor, "weth", "approve", [this.addr("vaultV1"), maxUint256]);
      await this.send(k.vaultDepositor, "vaultV1", "deposit", [parseEther("2"), k.vaultDepositor.address]);
    });
    S(DATES.vaultQueueRequest, "vault v1 withdrawal requested", async () => {
      this.landmark("vaultWithdrawalRequested", await this.send(k.vaultDepositor, "vaultV1", "requestWithdrawal", [parseEther("1.5")]));
    });
    S(DATES.vaultSweep, "vault v1 sweep to the exchange", async () => {
      this.landmark("vaultSweep", await this.safe("vaultV1", "sweepToExchange", [parseEther("1")]));
    });
    S(DATES.vaultQueueClaim, "vault v1 withdrawal claimed", async () => {
      this.landmark("vaultWithdrawalClaimed", await this.send(k.vaultDepositor, "vaultV1", "claimWithdrawal", [0n]));
    });

    S(DATES.ceremony, "2026-06-16 ceremony", async () => {
      const dep = k.deployer;
      await this.deploy("treasuryV2", "KerneTreasury", dep, [zeroAddress, zeroAddress, zeroAddress]);
      await this.send(dep, "treasuryV2", "transferOwnership", [this.addr("multisig")]);
      await this.deployPsm("psmRetiredMint", "treasuryV2");
      await this.grantMinter("safe", "psmRetiredMint");
      await this.revokeMinter("psmRedeemReserve");
      await this.deploy("vaultV2", "KerneVault", dep, [this.addr("weth"), "Kerne ETH Vault v2", "kETHv2", this.addr("multisig"), k.operator.address, k.operator.address]);
      await this.grantMinter("safe", "vaultV2");
    });

    S(DATES.ceremony + HOUR, "founder mints in era 2", async () => {
      await this.mintFor(k.operator, usdc(200_000));
    });

    S(DATES.skusdRedeploy, "skUSD redeploy and migration", async () => {
      const dep = k.deployer;
      await this.deploy("skUSD", "StakedKUSD", dep, [this.addr("kUSD"), this.addr("multisig")]);
      await this.deploy("incentiveEscrow", "IncentiveEscrow", dep, [this.addr("kUSD"), this.addr("skUSD"), k.operator.address, 1200n, kusd(2_000_000), BigInt(iso("2027-01-31T00:00:00Z"))]);
      await this.safe("skUSD", "grantRole", [STRATEGIST_ROLE, this.addr("incentiveEscrow")]);
      await this.send(k.operator, "kUSD", "approve", [this.addr("incentiveEscrow"), maxUint256]);
      await this.send(k.operator, "incentiveEscrow", "fund", [kusd(40_000)]);
      await this.migrateStakers();
    });

    S(DATES.skusdRedeploy + 6 * HOUR, "late distribution into the superseded vault", async () => {
      // Lands after the stakers left: the virtual shares of the offset absorb most of it,
      // so it is kUSD that no share can claim (the orphan).
      await this.send(k.operator, "skUSDDeprecated", "distributeYield", [kusd(1_500)]);
    });

    S(DATES.mintPsmRedeploy, "mint PSM redeploy", async () => {
      const dep = k.deployer;
      await this.deploy("treasury", "KerneTreasury", dep, [zeroAddress, zeroAddress, zeroAddress]);
      await this.send(dep, "treasury", "transferOwnership", [this.addr("multisig")]);
      await this.deployPsm("psmMint", "treasury");
      await this.grantMinter("safe", "psmMint");
      await this.revokeMinter("psmRetiredMint");
    });

    S(DATES.mintPsmRedeploy + HOUR, "founder mints in era 3", async () => {
      await this.mintFor(k.operator, usdc(300_000));
    });

    const redeem = (name: string, who: DevnetKey, psm: string, amount: bigint) => async () => {
      await this.send(who, "kUSD", "approve", [this.addr(psm), maxUint256]);
      this.landmark(name, await this.send(who, psm, "swapKUSDForStable", [this.addr("usdc"), amount]));
    };
    S(DATES.founderRedeemLegacy, "founder redeems (legacy PSM)", redeem("redemption:founder:psmRedeemReserve", k.operator, "psmRedeemReserve", kusd(20_000)));
    S(DATES.vaultV2Whitelist, "vault v2 deposits shut", async () => {
      await this.safe("vaultV2", "setWhitelistEnabled", [true]);
    });
    S(DATES.founderRedeemRetired, "founder redeems (retired mint PSM)", redeem("redemption:founder:psmRetiredMint", k.operator, "psmRetiredMint", kusd(15_000)));
    S(DATES.vaultV2MinterRevoked, "vault v2 loses MINTER_ROLE", async () => {
      await this.revokeMinter("vaultV2");
    });

    S(DATES.timelockAdminGranted - HOUR, "timelock and pause guardian deployed", async () => {
      const safe = this.addr("multisig");
      // Self-administered: no admin account, so the deploy emits exactly four role events.
      await this.deploy("timelock", "Timelock", k.deployer, [TIMELOCK_DELAY, [safe], [safe], zeroAddress]);
      await this.deploy("pauseGuardian", "PauseGuardian", k.deployer, [safe, PSM_KEYS.map((p) => this.addr(p))]);
    });
    S(DATES.timelockAdminGranted, "timelock made admin beside the Safe", async () => {
      // From here until the handover both hold DEFAULT_ADMIN_ROLE, so the delay does not bind.
      for (const c of ["kUSD", ...PSM_KEYS]) await this.safe(c, "grantRole", [DEFAULT_ADMIN_ROLE, this.addr("timelock")]);
    });
    S(DATES.timelockHandover, "custody handover", async () => {
      // The operator's batch was 13 calls in one Safe transaction (MultiSend); our Safe makes one
      // call per transaction, so the same 13 calls run in 13 consecutive blocks, in the same order:
      // MANAGER to the timelock and to the guardian on each PSM (so an emergency stop exists at
      // every step), then the Safe's own MANAGER and admin roles revoked, kUSD's admin last.
      for (const p of PSM_KEYS) {
        await this.safe(p, "grantRole", [MANAGER_ROLE, this.addr("timelock")]);
        await this.safe(p, "grantRole", [MANAGER_ROLE, this.addr("pauseGuardian")]);
      }
      for (const p of PSM_KEYS) {
        await this.safe(p, "revokeRole", [MANAGER_ROLE, this.addr("multisig")]);
        await this.safe(p, "revokeRole", [DEFAULT_ADMIN_ROLE, this.addr("multisig")]);
      }
      this.landmark("timelockHandover", await this.safe("kUSD", "revokeRole", [DEFAULT_ADMIN_ROLE, this.addr("multisig")]));
    });

    S(DATES.lendingMarket - 12 * DAY, "lending market deployed", async () => {
      // Euler-style isolated market: a kUSD escrow vault (collateral only) and a USDC vault
      // that lends against it. Governed by the market's curator, not by the operator.
      await this.deploy("lendingEscrowKUSD", "EVKVault", k.lendingGovernor, [this.addr("kUSD"), "EVK Escrow kUSD", "ekUSD-1", k.lendingGovernor.address, 0n]);
      await this.deploy("lendingUSDC", "EVKVault", k.lendingGovernor, [this.addr("usdc"), "EVK Vault eUSDC-1", "eUSDC-1", k.lendingGovernor.address, 600n]);
      await this.send(k.lendingGovernor, "lendingUSDC", "setCollateral", [this.addr("lendingEscrowKUSD"), 8500]);
      await this.send(k.lendingGovernor, "lendingEscrowKUSD", "setController", [this.addr("lendingUSDC")]);
    });

    S(DATES.venueDeposit, "disclosed venue deposit", async () => {
      const amount = usdc(MARGIN_DEPOSITS.find((m) => m.onChain)!.usd);
      await this.send(k.circle, "usdc", "mint", [k.operator.address, amount]);
      this.landmark("disclosedVenueDeposit", await this.send(k.operator, "usdc", "transfer", [this.addr("venueBridge"), amount]));
    });
    S(DATES.venueDeposit + DAY, "vault v2 mirror", async () => {
      const a = accountAt(this.d.now);
      await this.send(k.operator, "vaultV2", "updateL1Assets", [parseEther((50_000 / a.markPx).toFixed(18))]);
    });

    S(DATES.lendingMarket, "operator supplies the lending market", async () => {
      await this.send(k.operator, "usdc", "approve", [this.addr("lendingUSDC"), maxUint256]);
      await this.send(k.operator, "kUSD", "approve", [this.addr("lendingEscrowKUSD"), maxUint256]);
      await this.send(k.circle, "usdc", "mint", [k.operator.address, usdc(30_000)]);
      await this.send(k.operator, "lendingUSDC", "deposit", [usdc(30_000), k.operator.address]);
      await this.send(k.operator, "lendingEscrowKUSD", "deposit", [kusd(20_000), k.operator.address]);
      await this.mintFor(k.borrower, usdc(15_000));
      await this.send(k.borrower, "kUSD", "approve", [this.addr("lendingEscrowKUSD"), maxUint256]);
      await this.send(k.borrower, "lendingEscrowKUSD", "deposit", [kusd(14_985), k.borrower.address]);
      await this.send(k.borrower, "lendingUSDC", "borrow", [usdc(9_000), k.borrower.address]);
    });

    // PSM v1 has no skim: its fees stay in its reserve. The retired mint PSM's mint fees go, and
    // since the handover a skim (MANAGER_ROLE) waits out the timelock's delay.
    this.timelocked(DATES.feeSkim, "fee skim", "psmRetiredMint", "skimSurplus", async () => [
      this.addr("usdc"),
      await this.read<bigint>("psmRetiredMint", "skimmableSurplus", [this.addr("usdc")]),
    ], "feeSkim");
    S(DATES.mintingOffDrill, "live PSM mints from inventory for an hour", async () => {
      // With minting off the live PSM keeps redeemed kUSD as inventory and pays mints out of it;
      // with minting on it burns what it redeems. Both in one job so no user mint lands between.
      await this.safe("psmMint", "setMintingEnabled", [false]);
      await this.send(k.operator, "kUSD", "approve", [this.addr("psmMint"), maxUint256]);
      this.landmark("redemption:inventory:psmMint", await this.send(k.operator, "psmMint", "swapKUSDForStable", [this.addr("usdc"), kusd(4_000)]));
      this.landmark("mintFromInventory", await this.mintFor(k.externalRedeemer, usdc(2_500), "psmMint"));
      await this.safe("psmMint", "setMintingEnabled", [true]);
    });
    S(DATES.safeFunding, "operator funds the multisig", async () => {
      await this.send(k.circle, "usdc", "mint", [k.operator.address, usdc(150_000)]);
      this.landmark("safeFunding", await this.send(k.operator, "usdc", "transfer", [this.addr("multisig"), usdc(150_000)]));
      await this.send(k.operator, "weth", "transfer", [this.addr("multisig"), parseEther("1")]);
    });
    S(DATES.psmTopUp, "multisig tops up the mint PSM", async () => {
      this.landmark("psmTopUp", await this.safe("usdc", "transfer", [this.addr("psmMint"), usdc(100_000)]));
    });
    S(DATES.founderRedeemMint, "founder redeems (mint PSM)", redeem("redemption:founder:psmMint", k.operator, "psmMint", kusd(10_000)));
    S(DATES.violation, "the registry violation", async () => {
      this.landmark("violation", await this.send(k.hedgeWatchOnly, "weth", "transfer", [k.unlistedRecipient.address, parseEther("2")]));
    });
    // The guardian pauses at once (at the Safe's request); unpausing is the admin's, so it
    // waits 48 h in the timelock.
    S(DATES.pauseDrill, "pause drill", async () => {
      this.landmark("pause", await this.safe("pauseGuardian", "pause", [this.addr("psmRetiredMint")]));
    });
    this.timelocked(DATES.pauseDrill + 60, "pause drill: unpause", "psmRetiredMint", "unpause", () => [], "unpause");
    S(DATES.externalRedeem - 2 * DAY, "external wallet mints", async () => {
      await this.mintFor(k.externalRedeemer, usdc(5_000));
    });
    S(DATES.externalRedeem, "external redemption", redeem("redemption:external:psmMint", k.externalRedeemer, "psmMint", kusd(5_000)));
    S(DATES.flashLoan, "flash loan of the whole reserve", async () => {
      const reserve = await this.read<bigint>("psmMint", "maxFlashLoan", [this.addr("usdc")]);
      this.landmark("flashLoan", await this.send(k.arbitrageur, "flashBorrower", "borrow", [this.addr("psmMint"), this.addr("usdc"), reserve, true]));
    });
    S(DATES.feeLadderWalk, "an outside desk walks the live PSM's fee ladder", async () => {
      // Mints and redemptions one unit either side of every tier boundary, so the indexed
      // history holds each tier and each edge (thresholds are lower bounds in USDC units).
      const w = k.ladderWalker;
      await this.send(k.circle, "usdc", "mint", [w.address, usdc(2_700_000)]);
      await this.send(w, "usdc", "approve", [this.addr("psmMint"), maxUint256]);
      await this.send(w, "kUSD", "approve", [this.addr("psmMint"), maxUint256]);
      for (const t of FEE_TIERS) {
        for (const size of [t.threshold - 1n, t.threshold]) {
          this.landmark(`feeLadder:mint:${size}`, await this.send(w, "psmMint", "swapStableForKUSD", [this.addr("usdc"), size]));
        }
      }
      await this.send(w, "psmMint", "swapStableForKUSD", [this.addr("usdc"), usdc(10_000)]);
      for (const t of [...FEE_TIERS].reverse()) {
        // One kUSD wei below the boundary is one USDC unit below it once converted (floor).
        for (const kusdIn of [t.threshold * 10n ** 12n - 1n, t.threshold * 10n ** 12n]) {
          this.landmark(`redemption:external:feeLadder:${kusdIn}`, await this.send(w, "psmMint", "swapKUSDForStable", [this.addr("usdc"), kusdIn]));
        }
      }
    });
    S(DATES.insuranceTopUp, "movements among operator accounts", async () => {
      await this.safe("usdc", "transfer", [this.addr("insuranceFund"), usdc(25_000)]);
      await this.send(k.hedgeWatchOnly, "weth", "transfer", [this.addr("insuranceFund"), parseEther("3")]);
      const v2Balance = await this.read<bigint>("usdc", "balanceOf", [this.addr("treasuryV2")]);
      if (v2Balance > 0n) {
        this.landmark("treasurySweep", await this.safe("treasuryV2", "emergencyWithdraw", [this.addr("usdc"), v2Balance, this.addr("treasury")]));
      }
    });
    // The redeem-only prior PSM is capped at what it holds, through the timelock (MANAGER_ROLE is
    // the timelock's since the handover): at its cap from then on, since the v3 cap check adds to
    // max(currentExposure, balanceOf) and nothing moves its USDC in the meantime.
    this.timelocked(DATES.insuranceTopUp + HOUR, "cap the prior mint PSM at what it holds", "psmRetiredMint", "setStableCap", async () => {
      const [exposure, held] = await Promise.all([
        this.read<bigint>("psmRetiredMint", "currentExposure", [this.addr("usdc")]),
        this.read<bigint>("usdc", "balanceOf", [this.addr("psmRetiredMint")]),
      ]);
      return [this.addr("usdc"), exposure > held ? exposure : held];
    }, "psmAtCap");
  }

  /** Everyone leaves the superseded vault for the new one, except two dust positions. */
  private async migrateStakers() {
    const k = this.keys;
    const dust: Record<string, bigint> = { [k.operator.address]: 600_000n, [k.externalDustHolder.address]: 250_000n };
    const holders = [k.operator.address, k.externalDustHolder.address, ...Array.from({ length: this.userCount }, (_, i) => userKey(i).address)];
    const shares = await this.balances("skUSDDeprecated", holders);
    const leaving = holders
      .map((holder, i) => ({ holder, shares: shares[i]! - (dust[holder] ?? 0n) }))
      .filter((x) => x.shares > 0n);
    const assetsOut = await this.readMany("skUSDDeprecated", "previewRedeem", leaving.map((x) => [x.shares]));
    const txs: Tx[] = [];
    const deposits: Tx[] = [];
    for (const [i, { holder, shares: leave }] of leaving.entries()) {
      const assets = assetsOut[i]!;
      txs.push(this.tx(holder, "skUSDDeprecated", "redeem", [leave, holder, holder]));
      if (holder === k.externalDustHolder.address) continue;
      deposits.push(this.tx(holder, "kUSD", "approve", [this.addr("skUSD"), maxUint256]));
      deposits.push(this.tx(holder, "skUSD", "deposit", [assets, holder]));
    }
    await this.d.sendBlock(txs);
    await this.d.sendBlock(deposits);
  }

  private schedulePeriodic(end: number) {
    const k = this.keys;
    // Daily LST oracle reports: wstETH ~3.1 % and cbETH ~2.9 % a year, with day-to-day noise.
    for (let t = HISTORY_START + DAY + 30 * 60, day = 1; t <= end; t += DAY, day++) {
      const dayIndex = day;
      this.schedule(t, "LST rates", async () => {
        await this.pushEthPrice();
        for (const [name, apr] of [["wstETH", 0.031], ["cbETH", 0.029]] as const) {
          const rate = await this.read<bigint>(name, "exchangeRate");
          const daily = (apr / 365) * (1 + 0.4 * (hashUnit(dayIndex, name.length) - 0.5));
          const next = rate + (rate * BigInt(Math.round(daily * 1e12))) / 10n ** 12n;
          await this.send(k.oracleKeeper, name, "updateExchangeRate", [next]);
        }
      });
    }
    // Weekly: the vault v1 mirror of venue equity, and a yield distribution to the live vault.
    for (let t = HISTORY_START + 2 * DAY + 18 * HOUR; t <= end; t += 7 * DAY) {
      this.schedule(t, "vault v1 mirror", async () => {
        const a = accountAt(this.d.now);
        await this.send(k.operator, "vaultV1", "updateL1Assets", [parseEther((a.equityUsd / a.markPx).toFixed(18))]);
      });
      this.schedule(t + HOUR, "weekly yield", async () => {
        const vault = this.liveStakingVault(this.d.now);
        const assets = await this.read<bigint>(vault, "totalAssets");
        // 0.12 % a week (~6.4 % a year), never more than a tenth of what the payer holds.
        const payer = vault === "skUSD" ? this.addr("incentiveEscrow") : k.operator.address;
        const [available] = await this.balances("kUSD", [payer]);
        const amount = [(assets * 12n) / 10_000n, available! / 10n].reduce((a, b) => (a < b ? a : b));
        if (amount === 0n) return;
        if (vault === "skUSD") await this.send(k.operator, "incentiveEscrow", "distribute", [amount]);
        else await this.send(k.operator, "skUSDDeprecated", "distributeYield", [amount]);
      });
    }
  }

  private scheduleUsers(end: number) {
    const plan = planUserActivity(this.options.scale, HISTORY_START + DAY, end - DAY);
    this.userCount = Math.max(0, ...plan.flatMap((d) => d.actions.map((a) => a.user + 1)));
    this.schedule(HISTORY_START, "fund users", async () => {
      await this.d.setBalances(Array.from({ length: this.userCount }, (_, i) => userKey(i).address), parseEther("100"));
    });
    for (const day of plan) this.schedule(day.at, `users day ${day.day}`, () => this.runUserDay(day));
  }

  private async runUserDay(day: ActivityDay) {
    const psm = this.livePsm(this.d.now);
    const vault = this.liveStakingVault(this.d.now);
    const mints = day.actions.filter((a) => a.kind === "mint");
    if (mints.length > 0) {
      await this.d.sendBlock(mints.map((a) => this.tx(this.keys.circle, "usdc", "mint", [userKey(a.user).address, a.usdc])));
      await this.d.sendBlock(
        mints.flatMap((a) => {
          const u = userKey(a.user).address;
          return [this.tx(u, "usdc", "approve", [this.addr(psm), maxUint256]), this.tx(u, psm, "swapStableForKUSD", [this.addr("usdc"), a.usdc])];
        }),
      );
    }
    const rest = day.actions.filter((a) => a.kind !== "mint");
    if (rest.length === 0) return;
    const users = [...new Set(rest.map((a) => userKey(a.user).address))];
    const kusdBal = new Map<Address, bigint>(users.map((u) => [u, 0n]));
    const shareBal = new Map<Address, bigint>(users.map((u) => [u, 0n]));
    (await this.balances("kUSD", users)).forEach((b, i) => kusdBal.set(users[i]!, b));
    (await this.balances(vault, users)).forEach((b, i) => shareBal.set(users[i]!, b));
    const take = (m: Map<Address, bigint>, u: Address, fraction: number) => {
      const amount = ((m.get(u) ?? 0n) * BigInt(Math.floor(fraction * 1e6))) / 1_000_000n;
      m.set(u, (m.get(u) ?? 0n) - amount);
      return amount;
    };
    const txs: Tx[] = [];
    for (const a of rest) {
      const u = userKey(a.user).address;
      if (a.kind === "stake") {
        const amount = take(kusdBal, u, a.fraction);
        if (amount === 0n) continue;
        txs.push(this.tx(u, "kUSD", "approve", [this.addr(vault), maxUint256]), this.tx(u, vault, "deposit", [amount, u]));
      } else if (a.kind === "transferKUSD") {
        const amount = take(kusdBal, u, a.fraction);
        if (amount > 0n) txs.push(this.tx(u, "kUSD", "transfer", [userKey(a.to).address, amount]));
      } else if (a.kind === "transferShares") {
        const amount = take(shareBal, u, a.fraction);
        if (amount > 0n) txs.push(this.tx(u, vault, "transfer", [userKey(a.to).address, amount]));
      } else if (a.kind === "unstake") {
        const amount = take(shareBal, u, a.fraction);
        if (amount > 0n) txs.push(this.tx(u, vault, "redeem", [amount, u, u]));
      }
    }
    await this.d.sendBlock(txs);
  }

  // ------------------------------------------------------------------ registry configuration

  /**
   * The operator's account registry as published over time. A version lists what the operator
   * controlled when it was issued; later versions add new accounts and disclosures.
   */
  private registryVersions(): RegistryVersionConfig[] {
    const k = this.keys;
    const c = (ref: string, role: string, label: string, holds: boolean, backs: boolean) => ({
      address: this.addr(ref), kind: "contract" as const, chain: "base" as const, role, venue: null, label, holds_protocol_funds: holds, backs_kusd: backs, ref,
    });
    const e = (ref: KeyName, role: string, label: string, venue: string | null, holds: boolean) => ({
      address: k[ref].address, kind: "eoa" as const, chain: "base" as const, role, venue, label, holds_protocol_funds: holds, backs_kusd: false, ref,
    });
    const v1 = [
      e("operator", "venue_margin", "Operator account: hedge margin on the venue, vault v1 strategist", "hyperliquid", true),
      e("hedgeWatchOnly", "hedge_base_watch_only", "Founder float on Base (watch-only for the hedge)", null, true),
      c("multisig", "admin_multisig", "Admin multisig (2-of-3)", true, false),
      c("treasuryV1", "treasury", "Protocol treasury v1", true, false),
      c("insuranceFund", "insurance_fund", "Insurance fund", true, true),
      c("psmRedeemReserve", "psm_mint", "kUSD PSM v1 (mint)", true, true),
      c("vaultV1", "vault_v1_retired", "Kerne vault v1", true, true),
      c("skUSDDeprecated", "staked_vault", "skUSD v1 staking vault", false, false),
      c("kUSD", "liability_token", "kUSD", false, false),
    ];
    const v2 = [
      ...v1.map((x) =>
        x.ref === "treasuryV1" ? { ...x, role: "treasury_v1_superseded", label: "Protocol treasury v1 (superseded)" }
        : x.ref === "psmRedeemReserve" ? { ...x, role: "psm_redeem_reserve", label: "kUSD PSM v1 (redeem reserve)" }
        : x),
      c("treasuryV2", "treasury", "Protocol treasury v2", true, false),
      c("psmRetiredMint", "psm_mint", "kUSD PSM 2026-06-16 (mint)", true, true),
      c("vaultV2", "vault_v2_attested", "Kerne vault v2 (live deposit vault)", true, false),
    ];
    const v3 = [
      ...v2.map((x) => (x.ref === "skUSDDeprecated" ? { ...x, role: "staked_vault_superseded", label: "skUSD v1 (superseded)" } : x)),
      c("skUSD", "staked_vault", "skUSD staking vault", false, false),
      c("incentiveEscrow", "incentive_escrow", "skUSD incentive escrow", true, false),
    ];
    const v4 = [
      ...v3.map((x) =>
        x.ref === "treasuryV2" ? { ...x, role: "treasury_v2_superseded", label: "Protocol treasury v2 (superseded)" }
        : x.ref === "psmRetiredMint" ? { ...x, role: "psm_prev_mint_retired", label: "kUSD PSM 2026-06-16 (retired mint, redeem only)" }
        : x),
      c("treasury", "treasury", "Protocol treasury v3 (PSM fee sink)", true, false),
      c("psmMint", "psm_mint", "kUSD PSM (live mint)", true, true),
    ];
    const v5 = [
      ...v4,
      c("timelock", "admin_timelock", "TimelockController, 48 h (admin of kUSD and the PSMs since 2026-08-06)", false, false),
      c("pauseGuardian", "pause_guardian", "Pause guardian (pauses a PSM at the Safe's request)", false, false),
      e("attestationSigner", "attestation_signer", "Attestation signing key (from 2026-08-13)", null, false),
      e("paymentRecipient", "x402_recipient", "Paid gateway payment recipient", null, true),
    ];
    const day = (t: number) => new Date(t * 1000).toISOString().slice(0, 10);
    const disclosures = [
      {
        address: this.addr("venueBridge"), symbol: "USDC", venue: "hyperliquid", chain: "base" as const, asset: "USDC",
        what_it_is: "The venue's deposit contract: USDC sent here is credited as margin to the sender's venue account.",
        receives_from: [k.operator.address], public_per_address_read: 'POST /info {"type":"clearinghouseState","user":"<address>"}', disclosed_at: day(DATES.venueDisclosure),
      },
      {
        address: this.addr("lendingUSDC"), symbol: "eUSDC-1", venue: "euler", chain: "base" as const, asset: "USDC",
        what_it_is: "Isolated lending vault (EVK) the operator supplies USDC to.",
        receives_from: [k.operator.address], public_per_address_read: "cast call <vault> 'balanceOf(address)(uint256)' <address>", disclosed_at: day(DATES.venueDisclosure),
      },
      {
        address: this.addr("lendingEscrowKUSD"), symbol: "ekUSD-1", venue: "euler", chain: "base" as const, asset: "kUSD",
        what_it_is: "EVK escrow vault holding kUSD as collateral for the isolated market.",
        receives_from: [k.operator.address], public_per_address_read: "cast call <vault> 'balanceOf(address)(uint256)' <address>", disclosed_at: day(DATES.venueDisclosure),
      },
    ];
    return [
      { registry_version: 1, issued_at: DATES.registryV1, as_of: day(DATES.registryV1), entries: v1, disclosed_venue_deposits: [] },
      { registry_version: 2, issued_at: DATES.ceremony - HOUR, as_of: day(DATES.ceremony), entries: v2, disclosed_venue_deposits: [] },
      { registry_version: 3, issued_at: DATES.skusdRedeploy - HOUR, as_of: day(DATES.skusdRedeploy), entries: v3, disclosed_venue_deposits: [] },
      { registry_version: 4, issued_at: DATES.mintPsmRedeploy - HOUR, as_of: day(DATES.mintPsmRedeploy), entries: v4, disclosed_venue_deposits: [] },
      { registry_version: 5, issued_at: DATES.venueDisclosure, as_of: day(DATES.venueDisclosure), entries: v5, disclosed_venue_deposits: disclosures },
    ];
  }
}
