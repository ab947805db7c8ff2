/**
 * The one function that turns a network document (the operator's registry file plus our `kusd`
 * section) into the configuration the indexer and the reports use, for the devnet and for Base
 * alike. Environment variables override only what an operator of this service chooses (RPC URLs,
 * keys, payment terms), never where the protocol's contracts are or when they start.
 */

import {
  blockOnDate,
  type ContractDeployment,
  type Deployed,
  type FeedConfig,
  type NetworkConfig,
  networkDocumentDigest,
  PSM_VERSIONS,
  type PsmKey,
  type StakingYieldSource,
} from "@kusd/core";
import { type Address, getAddress, isAddress } from "viem";
import {
  type AddressRef,
  type FeedSpec,
  type IndexedContractSpec,
  type NetworkDocument,
  NetworkDocumentError,
  operatorFileAddresses,
  resolveAddress,
  type StartSpec,
} from "./document.js";
import type { ServiceEnv } from "./env.js";

export function networkFromDocument(doc: NetworkDocument, env: ServiceEnv): NetworkConfig {
  const k = doc.kusd;
  if (k?.schema !== "kusd-network/v1")
    throw new NetworkDocumentError(`not a kusd-network/v1 document (schema ${String(k?.schema)})`);
  if (doc.chainId !== k.chains.base.id)
    throw new NetworkDocumentError(
      `the registry file is for chain ${doc.chainId}, the document indexes chain ${k.chains.base.id}`,
    );
  const at = (ref: AddressRef) => resolveAddress(doc, ref);
  const maybe = (ref: AddressRef | null) => (ref === null ? null : at(ref));
  const clock = k.chains.base;
  const startOf = (s: StartSpec): number =>
    "startBlock" in s ? s.startBlock : blockOnDate(s.deployedOn, clock.genesisTimestamp, clock.blockTime);

  const deployments: ContractDeployment[] = [];
  const indexed = (role: string, spec: IndexedContractSpec): Deployed => {
    const d: ContractDeployment = {
      role,
      ref: isAddress(spec.at, { strict: false }) ? null : spec.at,
      address: at(spec.at),
      startBlock: startOf(spec),
      creationTx: spec.creationTx,
      source: spec.source,
    };
    deployments.push(d);
    return { address: d.address, startBlock: d.startBlock };
  };
  const mapIndexed = <K extends string>(specs: Record<K, IndexedContractSpec>) =>
    Object.fromEntries(
      Object.entries<IndexedContractSpec>(specs).map(([role, s]) => [role, indexed(role, s)]),
    ) as Record<K, Deployed>;

  const kUSD = indexed("kUSD", k.contracts.kUSD);
  for (const [key, spec] of Object.entries(k.contracts.psms)) {
    // The reports apply each version's fee and burn rules; a document may not reassign them.
    if (spec.version !== PSM_VERSIONS[key as PsmKey])
      throw new NetworkDocumentError(
        `${key} runs PSM ${PSM_VERSIONS[key as PsmKey]}, the document says ${spec.version}`,
        { key },
      );
  }
  const psms = mapIndexed(k.contracts.psms);
  const stakingVaults = mapIndexed(k.contracts.stakingVaults);
  const depositVaults = mapIndexed(k.contracts.depositVaults);
  const lending = mapIndexed(k.contracts.lending);
  const firstBlock = Math.min(...deployments.filter((d) => !(d.role in lending)).map((d) => d.startBlock));

  const feed = (s: FeedSpec): FeedConfig => ({
    address: at(s.at),
    description: s.description,
    decimals: s.decimals,
    source: s.source,
  });
  const feeds: Record<string, FeedConfig> = {};
  if (k.feeds.ethUsd) feeds.ethUsd = feed(k.feeds.ethUsd);
  const lsts: Record<string, StakingYieldSource> = {};
  for (const [symbol, s] of Object.entries(k.stakingYield)) {
    if (s.kind === "rate-event") lsts[symbol] = { kind: "rate-event", address: at(s.at), startBlock: startOf(s) };
    else {
      feeds[`${symbol}Rate`] = feed(s.feed);
      lsts[symbol] = {
        kind: "exchange-rate-feed",
        address: at(s.feed.at),
        startBlock: startOf(s),
        intervalBlocks: s.intervalBlocks,
        feed: feed(s.feed),
      };
    }
  }

  // PONDER_RPC_URL_8453 may name several providers, comma-separated: Ponder spreads requests
  // over them and budgets each one separately.
  const rpcUrls = env.PONDER_RPC_URL_8453 ?? (clock.rpc ? [clock.rpc] : []);
  const rpcBase = rpcUrls[0];
  if (!rpcBase)
    throw new NetworkDocumentError(`PONDER_RPC_URL_8453 is required for the ${k.name} network`, {
      name: "PONDER_RPC_URL_8453",
    });
  const readEthereum = env.KUSD_READ_RPC_URL_1 ?? env.PONDER_RPC_URL_1 ?? k.chains.ethereum.rpc;
  if (!readEthereum)
    throw new NetworkDocumentError(`KUSD_READ_RPC_URL_1 (or PONDER_RPC_URL_1) is required for the ${k.name} network`, {
      name: "KUSD_READ_RPC_URL_1",
    });

  const acc = k.accounts;
  const envAddress = (a: Address | undefined): Address | undefined => (a ? getAddress(a) : undefined);
  const registryOperator = at(k.registry.operator);
  const registryAccounts = new Set<Address>(k.registryAccounts.map(at));
  for (const v of k.registry.versions) {
    for (const e of v.entries) registryAccounts.add(getAddress(e.address));
    for (const x of v.disclosed_venue_deposits) registryAccounts.add(getAddress(x.address));
  }
  const indexedAddresses = new Set(deployments.map((d) => d.address));
  const attestationFrom =
    typeof k.signers.attestationFrom === "number"
      ? k.signers.attestationFrom
      : Date.parse(k.signers.attestationFrom) / 1000;
  if (!Number.isFinite(attestationFrom))
    throw new NetworkDocumentError(`signers.attestationFrom is not a time: ${k.signers.attestationFrom}`);
  const facilitatorKey = env.KUSD_FACILITATOR_PRIVATE_KEY;

  return {
    name: k.name,
    documentSha256: networkDocumentDigest(doc),
    chains: {
      base: {
        id: 8453,
        rpc: Array.from({ length: clock.rpcCopies }, () => rpcUrls).flat(),
        disableCache: clock.disableCache,
        pollingIntervalMs: env.KUSD_POLLING_INTERVAL_MS ?? clock.pollingIntervalMs,
        // The document's socket belongs to its RPC: an RPC named in the environment gets only the socket named beside it.
        ws: env.PONDER_WS_URL_8453 ?? (env.PONDER_RPC_URL_8453 ? null : (clock.ws ?? null)),
        ethGetLogsBlockRange: env.KUSD_ETH_GET_LOGS_BLOCK_RANGE ?? clock.ethGetLogsBlockRange,
      },
      ethereum: { id: 1 },
    },
    deployments,
    feeds,
    kUSD,
    usdc: { address: at(k.tokens.usdc), startBlock: firstBlock },
    weth: { address: at(k.tokens.weth), startBlock: firstBlock },
    psms,
    stakingVaults,
    depositVaults,
    lsts,
    lending,
    // What the operator's file lists but we do not index: its tokens, staking, oracles, retired
    // contracts and admin; instant reads refuse them (they are the operator's, not the world's).
    otherOperatorContracts: operatorFileAddresses(doc)
      .map((x) => x.address)
      .filter((a) => !indexedAddresses.has(a)),
    registryAccounts: [...registryAccounts],
    sharePriceInterval: k.sharePriceIntervalBlocks,
    reporting: {
      multisig: at(acc.multisig),
      timelock: maybe(acc.timelock),
      treasury: at(acc.treasury),
      insuranceFund: at(acc.insuranceFund),
      operator: at(acc.operator),
      hedgeWatchOnly: envAddress(env.KUSD_HEDGE_WATCH_ONLY) ?? maybe(acc.hedgeWatchOnly),
      incentiveEscrow: envAddress(env.KUSD_INCENTIVE_ESCROW) ?? maybe(acc.incentiveEscrow),
      ethUsdFeed: envAddress(env.KUSD_ETH_USD_FEED) ?? feeds.ethUsd?.address ?? null,
      venue: {
        name: k.venue.name,
        url: env.KUSD_VENUE_URL ?? k.venue.url,
        account: at(k.venue.account),
        coin: k.venue.coin,
      },
      signers: {
        operator: at(k.signers.operator),
        attestation: envAddress(env.KUSD_ATTESTATION_SIGNER) ?? maybe(k.signers.attestation),
        attestationFrom,
      },
      publicRpc: {
        base: env.KUSD_PUBLIC_RPC_URL_8453 ?? k.publicRpc.base,
        ethereum: env.KUSD_PUBLIC_RPC_URL_1 ?? k.publicRpc.ethereum,
      },
      readRpc: { base: env.KUSD_READ_RPC_URL_8453 ?? rpcBase, ethereum: readEthereum },
    },
    registry: {
      operator: registryOperator,
      versions: k.registry.versions,
      signatures: Object.fromEntries(Object.entries(k.registry.signatures ?? {}).map(([a, v]) => [a.toLowerCase(), v])),
      rejected: [],
    },
    yieldPolicy: k.yieldPolicy,
    payments: {
      network: k.payments.network,
      recipient: envAddress(env.KUSD_PAYMENT_RECIPIENT) ?? maybe(k.payments.recipient),
      builderCode: env.KUSD_BUILDER_CODE ?? k.payments.builderCode,
      asset: (({ at: ref, ...terms }) => ({ ...terms, address: at(ref) }))(k.payments.asset),
      facilitator: env.KUSD_X402_FACILITATOR_URL
        ? { kind: "http", url: env.KUSD_X402_FACILITATOR_URL }
        : facilitatorKey
          ? {
              kind: "local",
              rpcUrl: rpcBase,
              privateKey: facilitatorKey,
              pollingIntervalMs: env.KUSD_FACILITATOR_POLLING_MS,
            }
          : null,
    },
  };
}
