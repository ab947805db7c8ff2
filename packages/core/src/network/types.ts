import type { Address } from "viem";
import type { RegistryVersionConfig } from "./registry-config.js";

export type PsmKey = "psmMint" | "psmRetiredMint" | "psmRedeemReserve";

/**
 * Which deployed bytecode each PSM runs (operator-repo audits/SCOPE.md): the redeem reserve is
 * PSM v1 (0xFf30…), the retired mint PSM is v3 (0x07eB…), the live mint PSM is v3 plus the
 * redeem-burn fix (0xaBDE…). The versions differ in fee-tier rules, skim and burn.
 */
export type PsmVersion = "v1" | "v3" | "live";
export const PSM_VERSIONS: Record<PsmKey, PsmVersion> = {
  psmRedeemReserve: "v1",
  psmRetiredMint: "v3",
  psmMint: "live",
};
export type StakingVaultKey = "skUSD" | "skUSDDeprecated";
export type DepositVaultKey = "vaultV1" | "vaultV2";

export type Deployed = { address: Address; startBlock: number };

/** One contract the indexer follows, with where its address and start block come from. */
export type ContractDeployment = Deployed & {
  /** Role in this configuration (kUSD, psmMint, skUSD, lendingUSDC, …). */
  role: string;
  /** Where the operator's registry file names it (`contracts.kUSD`), or null for outside facts. */
  ref: string | null;
  creationTx: `0x${string}` | null;
  /** The public fact the start block is taken from. */
  source: string;
};

/** A Chainlink-style feed (AggregatorV3Interface) the reports read, and what it must say it is. */
export type FeedConfig = { address: Address; description: string; decimals: number; source: string };

/**
 * Where a liquid-staking exchange rate is observed: the devnet's rated token emits
 * `ExchangeRateUpdated`; on Base the bridged token has no rate, so an exchange-rate feed is read
 * every `intervalBlocks`.
 */
export type StakingYieldSource =
  | ({ kind: "rate-event" } & Deployed)
  | ({ kind: "exchange-rate-feed"; intervalBlocks: number; feed: FeedConfig } & Deployed);

export type ChainConfig = {
  id: number;
  rpc: string[];
  disableCache: boolean;
  /** How often Ponder asks for a new block (ms); Base makes one every 2 s. */
  pollingIntervalMs: number;
  /** A WebSocket endpoint pushing new heads (eth_subscribe newHeads), so none waits for a poll; null: polling. */
  ws: string | null;
  /** eth_getLogs block range, or null to let Ponder find the provider's limit from its errors. */
  ethGetLogsBlockRange: number | null;
};

/** Everything the indexer needs to know about one deployment of the protocol. */
export type NetworkConfig = {
  name: "devnet" | "base";
  /** SHA-256 of the network document's canonical JSON (network/document-digest.ts): what reports name it by. */
  documentSha256: `0x${string}`;
  /**
   * The indexer follows base only; ethereum (no protocol contracts) is read on demand by the
   * reports and the paid instant read, through `reporting.readRpc.ethereum`.
   */
  chains: { base: ChainConfig & { id: 8453 }; ethereum: { id: 1 } };
  /** Every indexed contract with its provenance (what `kusd-doctor` checks against a chain). */
  deployments: ContractDeployment[];
  /** Every feed the reports and the staking yield read, by name, with what it must describe itself as. */
  feeds: Record<string, FeedConfig>;
  kUSD: Deployed;
  usdc: Deployed;
  weth: Deployed;
  psms: Record<PsmKey, Deployed>;
  stakingVaults: Record<StakingVaultKey, Deployed>;
  depositVaults: Record<DepositVaultKey, Deployed>;
  /** Liquid-staking exchange rates the staking yield is computed from (symbol → source). */
  lsts: Record<string, StakingYieldSource>;
  /** EVK vaults of the operator's isolated lending market. */
  lending: Record<string, Deployed>;
  /**
   * The operator's other contracts and tokens, not indexed but never to be sold as an outside
   * read (governance token, escrow, staking, referral, distributor, oracle, retired tokens, …).
   */
  otherOperatorContracts: Address[];
  /** Every account of every published registry version, and disclosed venue deposit contracts. */
  registryAccounts: Address[];
  /** Blocks between share-price observations of the staking vaults. */
  sharePriceInterval: number;
  /** What the reports read besides the indexed contracts. */
  reporting: ReportingConfig;
  /** The operator's yield parameters (published with the yield report, not derivable on chain). */
  yieldPolicy: { strategyCostFraction: number; insuranceAllocation: number; protocolFee: number; feePhase: string };
  /** The paid gateway's payment terms (x402 v2, scheme exact, USDC via EIP-3009). */
  payments: PaymentsConfig;
  /** The operator's account registry as published over time (issued_at fixes when a version applies). */
  registry: {
    operator: Address;
    versions: RegistryVersionConfig[];
    /** Membership signatures the document carries (address lower case → as_of → signature). */
    signatures: Record<string, Record<string, `0x${string}`>>;
    rejected: RejectedRegistryVersion[];
  };
};

/** A published registry version that failed verification: reported, never used. */
export type RejectedRegistryVersion = {
  registry_version: number | null;
  source: string;
  failed: { name: string; detail?: string }[];
};

/** Accounts, feeds and the venue the reports read; public addresses only, never keys. */
export type ReportingConfig = {
  multisig: Address;
  /** TimelockController that administers kUSD and the PSMs since the 2026-08-06 handover, when there is one. */
  timelock: Address | null;
  /** The live treasury (PSM fee sink). */
  treasury: Address;
  insuranceFund: Address;
  /** The operator's venue-margin account: hedge margin on the venue; signed artifacts before the binding. */
  operator: Address;
  /** Founder float on Base that the hedge watches (disclosed, not collateral), when known. */
  hedgeWatchOnly: Address | null;
  incentiveEscrow: Address | null;
  /** Chainlink-style ETH / USD feed (AggregatorV3Interface) the report prices ETH with. */
  ethUsdFeed: Address | null;
  /** Hyperliquid-style /info API and the account whose equity backs the vault v1 mirror. */
  venue: { name: string; url: string | null; account: Address; coin: string };
  /** The signer binding: artifacts from `attestationFrom` (unix s) are signed by `attestation`. */
  signers: { operator: Address; attestation: Address | null; attestationFrom: number };
  /** RPC URLs for the reports' own reads (defaults to the indexer's first URL per chain). */
  readRpc: { base: string; ethereum: string };
  /** RPC URLs printed in reproduction commands: public ones, never a URL carrying a key. */
  publicRpc: { base: string; ethereum: string };
};

export const earliest = (...deployed: Deployed[]) => Math.min(...deployed.map((d) => d.startBlock));

export type PaymentsConfig = {
  network: `${string}:${string}`;
  recipient: Address | null;
  builderCode: string;
  asset: { address: Address; name: string; version: string; symbol: string; decimals: number };
  /** In-process facilitator (its gas key) on the devnet; a facilitator URL in production. */
  facilitator:
    | { kind: "local"; rpcUrl: string; privateKey: `0x${string}`; pollingIntervalMs?: number }
    | { kind: "http"; url: string }
    | null;
};
