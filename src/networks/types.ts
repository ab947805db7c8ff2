import type { Address } from "viem";
import type { RegistryVersionConfig } from "../../devnet/deployment.js";

export type PsmKey = "psmMint" | "psmRetiredMint" | "psmRedeemReserve";

/**
 * Which deployed bytecode each PSM runs (operator-repo audits/SCOPE.md): the redeem reserve is
 * PSM v1 (0xFf30…), the retired mint PSM is v3 (0x07eB…), the live mint PSM is v3 plus the
 * redeem-burn fix (0xaBDE…). The versions differ in fee-tier rules, skim and burn.
 */
export type PsmVersion = "v1" | "v3" | "live";
export const PSM_VERSIONS: Record<PsmKey, PsmVersion> = { psmRedeemReserve: "v1", psmRetiredMint: "v3", psmMint: "live" };
export type StakingVaultKey = "skUSD" | "skUSDDeprecated";
export type DepositVaultKey = "vaultV1" | "vaultV2";

export type Deployed = { address: Address; startBlock: number };

/** Everything the indexer needs to know about one deployment of the protocol. */
export type NetworkConfig = {
  name: "devnet" | "base";
  chains: {
    base: { id: 8453; rpc: string[]; disableCache: boolean };
    /** The ethereum chain is followed from `startBlock` only (no protocol contracts live there). */
    ethereum: { id: 1; rpc: string[]; disableCache: boolean; startBlock: number | "latest" };
  };
  kUSD: Deployed;
  usdc: Deployed;
  weth: Deployed;
  psms: Record<PsmKey, Deployed>;
  stakingVaults: Record<StakingVaultKey, Deployed>;
  depositVaults: Record<DepositVaultKey, Deployed>;
  /** Liquid-staking tokens whose exchange rate we observe (symbol → contract). */
  lsts: Record<string, Deployed>;
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
  registry: { operator: Address; versions: RegistryVersionConfig[] };
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
  facilitator: { kind: "local"; rpcUrl: string; privateKey: `0x${string}`; pollingIntervalMs?: number } | { kind: "http"; url: string } | null;
};
