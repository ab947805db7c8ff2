/**
 * The scripted history of the operator's world on the base devnet chain, from 2026-05-14 to
 * shortly before the present: deployments in their eras, MINTER_ROLE moving between PSMs,
 * mints, redemptions against all three PSMs, staking and yield, the vault v1 mirror, treasury
 * and multisig movements, a PSM top-up, a fee skim, a flash loan, a disclosed venue deposit,
 * and exactly one transfer that breaks the account-registry rule.
 */
import {
  type Abi,
  type Address,
  type Hex,
  keccak256,
  maxUint256,
  parseEther,
  stringToHex,
  zeroAddress,
  zeroHash,
} from "viem";
import { loadArtifact } from "./artifacts.js";
import type { ContractRecord, Deployment, RegistryVersionConfig, RoleGrantRecord } from "./deployment.js";
import { type ChainDriver, encode, type Receipt, type Tx } from "./driver.js";
import { STORY } from "./history/chapters.js";
import {
  DEFAULT_ADMIN_ROLE,
  FEE_TIERS,
  MANAGER_ROLE,
  MINTER_ROLE,
  PSM_ARTIFACTS,
  SWAP_FEE_BPS,
  TIMELOCK_DELAY,
  USDC_FEED_MAX_DELAY,
  usdc,
} from "./history/constants.js";
import type { HistoryWriter } from "./history/writer.js";
import { type DevnetKey, type KeyName, namedKeys, userKey } from "./keys.js";
import { hashUnit } from "./rng.js";
import { safeTxHash, signSafeTx } from "./safe.js";
import { DATES, DAY, HISTORY_START, HOUR, LAST_STORY_DATE } from "./timeline.js";
import { type ActivityDay, planUserActivity } from "./users.js";
import { accountAt } from "./venue/hedge.js";
import { ethPriceAt } from "./venue/market.js";

export {
  DEFAULT_ADMIN_ROLE,
  FEE_TIERS,
  kusd,
  MINTER_ROLE,
  PSM_ARTIFACTS,
  SWAP_FEE_BPS,
  TIMELOCK_DELAY,
  usdc,
} from "./history/constants.js";

/** Padding after the history so Ponder's finality depth (30 blocks on 8453) is passed. */
export const BASE_PADDING_BLOCKS = 40;
export const ETHEREUM_PADDING_BLOCKS = 80;

type Job = { at: number; order: number; name: string; run: () => Promise<void> };

export type HistoryOptions = { scale: number; now: number; log?: (line: string) => void };

export type BaseHistoryResult = Pick<Deployment, "roles" | "landmarks" | "registry" | "signers" | "users"> & {
  contracts: Record<string, ContractRecord>;
  historyEndBlock: number;
};

export class BaseHistory implements HistoryWriter {
  readonly keys: Record<KeyName, DevnetKey>;
  readonly contracts: Record<string, ContractRecord> = {};
  readonly roles: RoleGrantRecord[] = [];
  readonly landmarks: Deployment["landmarks"] = {};
  private jobs: Job[] = [];
  private order = 0;
  /** Users in the activity plan: set by scheduleUsers, before any job runs. */
  userCount = 0;

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

  async deploy(name: string, artifact: string, from: DevnetKey, args: readonly unknown[]) {
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

  send(from: DevnetKey | Address, contract: string, fn: string, args: readonly unknown[] = [], value?: bigint) {
    return this.d.send(this.tx(from, contract, fn, args, value));
  }

  async read<T>(contract: string, fn: string, args: readonly unknown[] = []): Promise<T> {
    return (await this.d.client.readContract({
      address: this.addr(contract),
      abi: this.abiOf(contract),
      functionName: fn,
      args,
    })) as T;
  }

  /** A call executed by the 2-of-3 multisig: two owner signatures over the SafeTx hash. */
  async safe(contract: string, fn: string, args: readonly unknown[] = []): Promise<Receipt> {
    const to = this.addr(contract);
    const data = encode(this.abiOf(contract), fn, args);
    const safe = this.addr("multisig");
    const nonce = await this.read<bigint>("multisig", "nonce");
    const hash = safeTxHash({ chainId: this.chainId, safe, to, value: 0n, data, nonce });
    const signatures = await signSafeTx(hash, [this.keys.operator.privateKey, this.keys.safeOwner2.privateKey]);
    return this.send(this.keys.operator, "multisig", "execTransaction", [
      to,
      0n,
      data,
      0,
      0n,
      0n,
      0n,
      zeroAddress,
      zeroAddress,
      signatures,
    ]);
  }

  /**
   * An admin call on kUSD or a PSM after the handover: the Safe schedules it on the timelock
   * at `at`, and executes it once the 48 h delay has passed (scheduled now, so the job list
   * stays in time order). `args` are computed when the call is proposed.
   */
  timelocked(
    at: number,
    name: string,
    contract: string,
    fn: string,
    args: () => Promise<readonly unknown[]> | readonly unknown[],
    landmark?: string,
  ) {
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

  landmark(name: string, receipt: Receipt) {
    this.landmarks[name] = {
      tx: receipt.transactionHash,
      block: Number(receipt.blockNumber),
      timestamp: this.d.now - this.d.blockTime,
    };
  }

  async grantMinter(via: "deployer" | "safe", holder: string) {
    const receipt =
      via === "safe"
        ? await this.safe("kUSD", "grantRole", [MINTER_ROLE, this.addr(holder)])
        : await this.send(this.keys.deployer, "kUSD", "grantRole", [MINTER_ROLE, this.addr(holder)]);
    this.roles.push({
      role: "MINTER_ROLE",
      roleHash: MINTER_ROLE,
      contract: "kUSD",
      holder: this.addr(holder),
      grantedBlock: Number(receipt.blockNumber),
      revokedBlock: null,
    });
    this.landmark(`minterGranted:${holder}`, receipt);
  }

  async revokeMinter(holder: string) {
    const receipt = await this.safe("kUSD", "revokeRole", [MINTER_ROLE, this.addr(holder)]);
    const grant = this.roles.find(
      (r) => r.holder === this.addr(holder) && r.role === "MINTER_ROLE" && r.revokedBlock === null,
    );
    if (grant) grant.revokedBlock = Number(receipt.blockNumber);
    this.landmark(`minterRevoked:${holder}`, receipt);
  }

  /**
   * Deployer configures a fresh PSM as the operator's are configured on Base (fee ladder,
   * minting on, the solvency gate off, the depeg gate on with a USDC / USD feed), then hands
   * both admin roles to the multisig. PSM v1 has no treasury, no solvency flag and no depeg
   * flag: without an oracle it skips the depeg check.
   */
  async deployPsm(name: keyof typeof PSM_ARTIFACTS, treasury: string | null) {
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
  async readMany(contract: string, fn: string, argLists: readonly unknown[][]): Promise<bigint[]> {
    const abi = this.abiOf(contract);
    const to = this.addr(contract);
    const out: bigint[] = [];
    for (let i = 0; i < argLists.length; i += 500) {
      const results = await this.d.rpcBatch<Hex>(
        argLists
          .slice(i, i + 500)
          .map((args) => ({ method: "eth_call", params: [{ to, data: encode(abi, fn, args) }, "latest"] })),
      );
      out.push(...results.map((r) => BigInt(r)));
    }
    return out;
  }

  balances(contract: string, holders: Address[]): Promise<bigint[]> {
    return this.readMany(
      contract,
      "balanceOf",
      holders.map((h) => [h]),
    );
  }

  /** One round of the ETH / USD feed at the market model's price for the current chain time. */
  async pushEthPrice() {
    await this.send(this.keys.oracleKeeper, "ethUsdFeed", "submit", [
      BigInt(Math.round(ethPriceAt(this.d.now) * 100)) * 10n ** 6n,
    ]);
    // USDC / USD, read by the PSMs' depeg check: at par, with the feed's heartbeat.
    await this.send(this.keys.oracleKeeper, "usdcUsdFeed", "submit", [100_000_000n]);
  }

  /** Mint kUSD for `who` through the live PSM: faucet USDC, approve, swap. */
  async mintFor(who: DevnetKey, amountUsdc: bigint, psm = this.livePsm(this.d.now)) {
    await this.send(this.keys.circle, "usdc", "mint", [who.address, amountUsdc]);
    await this.send(who, "usdc", "approve", [this.addr(psm), maxUint256]);
    return this.send(who, psm, "swapStableForKUSD", [this.addr("usdc"), amountUsdc]);
  }

  schedule(at: number, name: string, run: () => Promise<void>) {
    this.jobs.push({ at, order: this.order++, name, run });
  }

  // ------------------------------------------------------------------ the story

  async run(): Promise<BaseHistoryResult> {
    const k = this.keys;
    const end = this.options.now - 2 * HOUR;
    if (end < LAST_STORY_DATE) {
      throw new Error(
        `the scripted story runs to ${new Date(LAST_STORY_DATE * 1000).toISOString()}; the clock says ${new Date(this.options.now * 1000).toISOString()}`,
      );
    }
    await this.d.rpc("anvil_autoImpersonateAccount", [true]);
    await this.d.setBalances(
      Object.values(k).map((x) => x.address),
      parseEther("10000"),
    );
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
    // From here on blocks carry the wall clock's time, as Base's do: a block mined when a
    // statement is signed (its anchor) is dated when it was mined, not minutes earlier.
    await this.d.rpc("anvil_setTime", [Math.max(this.options.now, Math.floor(Date.now() / 1000))]);
    await this.d.rpc("anvil_autoImpersonateAccount", [false]);

    return {
      contracts: this.contracts,
      roles: this.roles,
      landmarks: this.landmarks,
      registry: { operator: k.operator.address, versions: this.registryVersions() },
      signers: {
        operator: k.operator.address,
        attestation: k.attestationSigner.address,
        attestationFrom: DATES.attestationKeyFrom,
      },
      users: { count: this.userCount, firstIndex: 0 },
      historyEndBlock,
    };
  }

  /** The story's chapters (devnet/history/), each scheduling its jobs at their dates. */
  private scheduleStory() {
    for (const chapter of STORY) chapter(this);
  }

  private schedulePeriodic(end: number) {
    const k = this.keys;
    // Daily LST oracle reports: wstETH ~3.1 % and cbETH ~2.9 % a year, with day-to-day noise.
    for (let t = HISTORY_START + DAY + 30 * 60, day = 1; t <= end; t += DAY, day++) {
      const dayIndex = day;
      this.schedule(t, "LST rates", async () => {
        await this.pushEthPrice();
        for (const [name, apr] of [
          ["wstETH", 0.031],
          ["cbETH", 0.029],
        ] as const) {
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
      await this.d.setBalances(
        Array.from({ length: this.userCount }, (_, i) => userKey(i).address),
        parseEther("100"),
      );
    });
    for (const day of plan) this.schedule(day.at, `users day ${day.day}`, () => this.runUserDay(day));
  }

  private async runUserDay(day: ActivityDay) {
    const psm = this.livePsm(this.d.now);
    const vault = this.liveStakingVault(this.d.now);
    const mints = day.actions.filter((a) => a.kind === "mint");
    if (mints.length > 0) {
      await this.d.sendBlock(
        mints.map((a) => this.tx(this.keys.circle, "usdc", "mint", [userKey(a.user).address, a.usdc])),
      );
      await this.d.sendBlock(
        mints.flatMap((a) => {
          const u = userKey(a.user).address;
          return [
            this.tx(u, "usdc", "approve", [this.addr(psm), maxUint256]),
            this.tx(u, psm, "swapStableForKUSD", [this.addr("usdc"), a.usdc]),
          ];
        }),
      );
    }
    const rest = day.actions.filter((a) => a.kind !== "mint");
    if (rest.length === 0) return;
    const users = [...new Set(rest.map((a) => userKey(a.user).address))];
    const kusdBal = new Map<Address, bigint>(users.map((u) => [u, 0n]));
    const shareBal = new Map<Address, bigint>(users.map((u) => [u, 0n]));
    for (const [i, b] of (await this.balances("kUSD", users)).entries()) kusdBal.set(users[i]!, b);
    for (const [i, b] of (await this.balances(vault, users)).entries()) shareBal.set(users[i]!, b);
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
        txs.push(
          this.tx(u, "kUSD", "approve", [this.addr(vault), maxUint256]),
          this.tx(u, vault, "deposit", [amount, u]),
        );
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
      address: this.addr(ref),
      kind: "contract" as const,
      chain: "base" as const,
      role,
      venue: null,
      label,
      holds_protocol_funds: holds,
      backs_kusd: backs,
      ref,
    });
    const e = (ref: KeyName, role: string, label: string, venue: string | null, holds: boolean) => ({
      address: k[ref].address,
      kind: "eoa" as const,
      chain: "base" as const,
      role,
      venue,
      label,
      holds_protocol_funds: holds,
      backs_kusd: false,
      ref,
    });
    const v1 = [
      e(
        "operator",
        "venue_margin",
        "Operator account: hedge margin on the venue, vault v1 strategist",
        "hyperliquid",
        true,
      ),
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
        x.ref === "treasuryV1"
          ? { ...x, role: "treasury_v1_superseded", label: "Protocol treasury v1 (superseded)" }
          : x.ref === "psmRedeemReserve"
            ? { ...x, role: "psm_redeem_reserve", label: "kUSD PSM v1 (redeem reserve)" }
            : x,
      ),
      c("treasuryV2", "treasury", "Protocol treasury v2", true, false),
      c("psmRetiredMint", "psm_mint", "kUSD PSM 2026-06-16 (mint)", true, true),
      c("vaultV2", "vault_v2_attested", "Kerne vault v2 (live deposit vault)", true, false),
    ];
    const v3 = [
      ...v2.map((x) =>
        x.ref === "skUSDDeprecated" ? { ...x, role: "staked_vault_superseded", label: "skUSD v1 (superseded)" } : x,
      ),
      c("skUSD", "staked_vault", "skUSD staking vault", false, false),
      c("incentiveEscrow", "incentive_escrow", "skUSD incentive escrow", true, false),
    ];
    const v4 = [
      ...v3.map((x) =>
        x.ref === "treasuryV2"
          ? { ...x, role: "treasury_v2_superseded", label: "Protocol treasury v2 (superseded)" }
          : x.ref === "psmRetiredMint"
            ? { ...x, role: "psm_prev_mint_retired", label: "kUSD PSM 2026-06-16 (retired mint, redeem only)" }
            : x,
      ),
      c("treasury", "treasury", "Protocol treasury v3 (PSM fee sink)", true, false),
      c("psmMint", "psm_mint", "kUSD PSM (live mint)", true, true),
    ];
    const v5 = [
      ...v4,
      c(
        "timelock",
        "admin_timelock",
        "TimelockController, 48 h (admin of kUSD and the PSMs since 2026-08-06)",
        false,
        false,
      ),
      c("pauseGuardian", "pause_guardian", "Pause guardian (pauses a PSM at the Safe's request)", false, false),
      e("attestationSigner", "attestation_signer", "Attestation signing key (from 2026-08-13)", null, false),
      e("paymentRecipient", "x402_recipient", "Paid gateway payment recipient", null, true),
    ];
    const day = (t: number) => new Date(t * 1000).toISOString().slice(0, 10);
    const disclosures = [
      {
        address: this.addr("venueBridge"),
        symbol: "USDC",
        venue: "hyperliquid",
        chain: "base" as const,
        asset: "USDC",
        what_it_is: "The venue's deposit contract: USDC sent here is credited as margin to the sender's venue account.",
        receives_from: [k.operator.address],
        public_per_address_read: 'POST /info {"type":"clearinghouseState","user":"<address>"}',
        disclosed_at: day(DATES.venueDisclosure),
      },
      {
        address: this.addr("lendingUSDC"),
        symbol: "eUSDC-1",
        venue: "euler",
        chain: "base" as const,
        asset: "USDC",
        what_it_is: "Isolated lending vault (EVK) the operator supplies USDC to.",
        receives_from: [k.operator.address],
        public_per_address_read: "cast call <vault> 'balanceOf(address)(uint256)' <address>",
        disclosed_at: day(DATES.venueDisclosure),
      },
      {
        address: this.addr("lendingEscrowKUSD"),
        symbol: "ekUSD-1",
        venue: "euler",
        chain: "base" as const,
        asset: "kUSD",
        what_it_is: "EVK escrow vault holding kUSD as collateral for the isolated market.",
        receives_from: [k.operator.address],
        public_per_address_read: "cast call <vault> 'balanceOf(address)(uint256)' <address>",
        disclosed_at: day(DATES.venueDisclosure),
      },
    ];
    return [
      {
        registry_version: 1,
        issued_at: DATES.registryV1,
        as_of: day(DATES.registryV1),
        entries: v1,
        disclosed_venue_deposits: [],
      },
      {
        registry_version: 2,
        issued_at: DATES.ceremony - HOUR,
        as_of: day(DATES.ceremony),
        entries: v2,
        disclosed_venue_deposits: [],
      },
      {
        registry_version: 3,
        issued_at: DATES.skusdRedeploy - HOUR,
        as_of: day(DATES.skusdRedeploy),
        entries: v3,
        disclosed_venue_deposits: [],
      },
      {
        registry_version: 4,
        issued_at: DATES.mintPsmRedeploy - HOUR,
        as_of: day(DATES.mintPsmRedeploy),
        entries: v4,
        disclosed_venue_deposits: [],
      },
      {
        registry_version: 5,
        issued_at: DATES.venueDisclosure,
        as_of: day(DATES.venueDisclosure),
        entries: v5,
        disclosed_venue_deposits: disclosures,
      },
    ];
  }
}
