/**
 * A network document: the operator's address registry (the shape of its `deployments-8453.json`)
 * plus a `kusd` section that says how we index it: each contract's role, version, start block and
 * the public fact that start block comes from. Base is the operator's own file plus our section;
 * the devnet writes one document of the same shape. Every address in the `kusd` section is either
 * a literal address or a path into the operator's part (`contracts.kUSD`, `retired.skUSD_v1`,
 * `admin.safe`, `externalTokens.USDC`), so no address of the operator's is typed twice.
 */

import type { PsmKey, PsmVersion, RegistryVersionConfig } from "@kusd/core";
import { KusdError } from "@kusd/core";
import { type Address, getAddress, type Hex, isAddress } from "viem";

/** The fields of the operator's registry file that we read. Keys starting with `_` are notes. */
export type OperatorRegistryFile = {
  chainId: number;
  chainName?: string;
  lastUpdated?: string;
  admin: { safe: string; timelock?: string; pauseGuardian?: string; [note: string]: unknown };
  externalTokens: Record<string, string>;
  contracts: Record<string, { address: string; [note: string]: unknown }>;
  retired: Record<string, string>;
};

/** A literal address, or a path into the operator's part of the document. */
export type AddressRef = string;

/**
 * Where a start block comes from: an exact block, or the UTC day the operator dates the
 * deployment (its first block, which nothing deployed that day precedes).
 */
export type StartSpec = { startBlock: number } | { deployedOn: string };

export type IndexedContractSpec = { at: AddressRef; creationTx: Hex | null; source: string } & StartSpec;
export type FeedSpec = { at: AddressRef; description: string; decimals: number; source: string };

export type NetworkExtension = {
  schema: "kusd-network/v1";
  name: "devnet" | "base";
  chains: {
    base: {
      id: 8453;
      /** Base's clock: block = (t − genesisTimestamp) / blockTime. */
      genesisTimestamp: number;
      blockTime: number;
      /** RPC URL when the document pins one (the devnet); otherwise PONDER_RPC_URL_8453. */
      rpc: string | null;
      /** Copies of the RPC URL handed to Ponder (each copy gets its own request budget). */
      rpcCopies: number;
      disableCache: boolean;
      pollingIntervalMs: number;
      /** WebSocket URL for new heads when the document pins an RPC (the devnet); otherwise PONDER_WS_URL_8453. */
      ws?: string | null;
      ethGetLogsBlockRange: number | null;
    };
    ethereum: { id: 1; rpc: string | null };
  };
  publicRpc: { base: string; ethereum: string };
  contracts: {
    kUSD: IndexedContractSpec;
    psms: Record<PsmKey, IndexedContractSpec & { version: PsmVersion }>;
    stakingVaults: { skUSD: IndexedContractSpec; skUSDDeprecated: IndexedContractSpec };
    depositVaults: { vaultV1: IndexedContractSpec; vaultV2: IndexedContractSpec };
    /** The operator's lending market (not in its registry file). */
    lending: Record<string, IndexedContractSpec>;
  };
  /** Tokens whose transfers matter from the protocol's first contract on. */
  tokens: { usdc: AddressRef; weth: AddressRef };
  stakingYield: Record<
    string,
    ({ kind: "rate-event"; at: AddressRef } | { kind: "exchange-rate-feed"; feed: FeedSpec; intervalBlocks: number }) &
      StartSpec
  >;
  feeds: { ethUsd: FeedSpec | null };
  accounts: {
    multisig: AddressRef;
    timelock: AddressRef | null;
    treasury: AddressRef;
    insuranceFund: AddressRef;
    operator: AddressRef;
    hedgeWatchOnly: AddressRef | null;
    incentiveEscrow: AddressRef | null;
  };
  /** Accounts whose USDC and WETH transfers are indexed, besides every registry version's entries. */
  registryAccounts: AddressRef[];
  venue: { name: string; url: string | null; account: AddressRef; coin: string };
  /** Artifacts dated from `attestationFrom` (ISO time or unix s) are signed by `attestation`. */
  signers: { operator: AddressRef; attestation: AddressRef | null; attestationFrom: string | number };
  sharePriceIntervalBlocks: number;
  yieldPolicy: { strategyCostFraction: number; insuranceAllocation: number; protocolFee: number; feePhase: string };
  payments: {
    network: `${string}:${string}`;
    recipient: AddressRef | null;
    builderCode: string;
    asset: { at: AddressRef; name: string; version: string; symbol: string; decimals: number };
  };
  /**
   * Registry versions this document configures itself (the devnet's); base loads published ones.
   * `signatures`: membership signatures (address → as_of → signature), public once published.
   */
  registry: {
    operator: AddressRef;
    versions: RegistryVersionConfig[];
    signatures?: Record<string, Record<string, Hex>>;
  };
};

export type NetworkDocument = OperatorRegistryFile & { kusd: NetworkExtension };

export class NetworkDocumentError extends KusdError<Record<string, unknown>> {
  override name = "NetworkDocumentError";
  readonly code: string = "network_document_invalid";
  constructor(message: string, details: Record<string, unknown> = {}) {
    super(message, details);
  }
}

/** Resolves a literal address or a path such as `contracts.kUSD` / `retired.skUSD_v1` / `admin.safe`. */
export function resolveAddress(doc: OperatorRegistryFile, ref: AddressRef): Address {
  if (isAddress(ref, { strict: false })) return getAddress(ref);
  const [section, name, ...rest] = ref.split(".");
  const table = section ? new Map<string, unknown>(Object.entries(doc)).get(section) : undefined;
  let value = name && table && typeof table === "object" ? (table as Record<string, unknown>)[name] : undefined;
  if (value && typeof value === "object" && "address" in value) value = (value as { address: unknown }).address;
  if (rest.length > 0 || typeof value !== "string" || !isAddress(value, { strict: false })) {
    throw new NetworkDocumentError(`the network document names ${ref}, which is not an address in it`, { ref });
  }
  return getAddress(value);
}

/** Every address the operator's part lists (admin, contracts, retired), with its path. */
export function operatorFileAddresses(doc: OperatorRegistryFile): { ref: string; address: Address }[] {
  const out: { ref: string; address: Address }[] = [];
  const add = (ref: string, value: unknown) => {
    if (typeof value === "string" && isAddress(value, { strict: false })) out.push({ ref, address: getAddress(value) });
  };
  for (const [k, v] of Object.entries(doc.admin)) add(`admin.${k}`, v);
  for (const [k, v] of Object.entries(doc.contracts)) add(`contracts.${k}`, v?.address);
  for (const [k, v] of Object.entries(doc.retired)) if (!k.startsWith("_")) add(`retired.${k}`, v);
  return out;
}
