/**
 * KUSD_REGISTRY_SOURCE: the operator's published account registry (the documents its
 * `/api/por/accounts` serves), for a network whose membership messages we cannot sign ourselves.
 * Each document is verified with the same verifier `kusd-verify-registry` uses (signatures,
 * digests, predicates re-run at their blocks on our own RPC); a version that passes is used for
 * the violation rule and the listed accounts, one that fails is reported and not used at all.
 */

import {
  type NetworkConfig,
  predicateFromPublished,
  type RegistryDocument,
  RegistryDocumentSchema,
  type RegistryEntryConfig,
  type RegistryVersionConfig,
  type RejectedRegistryVersion,
  verifyRegistryDocument,
} from "@kusd/core";
import { countedHttp } from "@kusd/rpc";
import { type Address, createPublicClient, getAddress, type Hex } from "viem";
import { NetworkDocumentError } from "../document.js";
import type { ServiceEnv } from "../env.js";
import { readJsonFile } from "./read-json.js";

/** One source (file path or http(s) URL) → its documents: one document, an array, or `{ documents }`. */
async function readSource(source: string): Promise<unknown[]> {
  let body: unknown;
  if (/^https?:\/\//.test(source)) {
    const response = await fetch(source, {
      headers: { accept: "application/json" },
      signal: AbortSignal.timeout(15_000),
    }).catch((error: Error) => {
      throw new NetworkDocumentError(`KUSD_REGISTRY_SOURCE ${source} is unreachable: ${error.message}`, { source });
    });
    if (!response.ok)
      throw new NetworkDocumentError(`KUSD_REGISTRY_SOURCE ${source} answered ${response.status}`, { source });
    body = await response.json().catch(() => {
      throw new NetworkDocumentError(`KUSD_REGISTRY_SOURCE ${source} did not answer JSON`, { source });
    });
  } else {
    body = readJsonFile<unknown>(source, "KUSD_REGISTRY_SOURCE");
  }
  if (Array.isArray(body)) return body;
  if (body && typeof body === "object" && Array.isArray((body as { documents?: unknown }).documents))
    return (body as { documents: unknown[] }).documents;
  return [body];
}

type PublishedRegistry = RegistryDocument["registry"];
type DisclosedDeposit = PublishedRegistry["disclosed_venue_deposits"]["accounts"][number];
/** The service reads disclosed deposits on Base only; a version naming another chain is rejected. */
const onBase = (x: DisclosedDeposit): x is DisclosedDeposit & { chain: "base" } => x.chain === "base";
type MembershipProof = PublishedRegistry["entries"][number]["statement"]["membership_proof"];

/** A contract's published proof: its predicate (and any secondary one) as the configuration holds them. */
function publishedPredicates(proof: MembershipProof): Pick<RegistryEntryConfig, "published"> {
  if (proof.kind !== "onchain_predicate") return {};
  const predicate = predicateFromPublished(proof.predicate);
  if (!predicate) return {};
  const secondary = proof.secondary_predicate ? predicateFromPublished(proof.secondary_predicate) : null;
  return { published: { predicate, secondary, why: proof.why_not_a_signature } };
}

/** A verified published version, read back into the configuration's shape. */
export function versionFromPublished(r: PublishedRegistry): RegistryVersionConfig {
  return {
    registry_version: r.registry_version,
    issued_at: r.issued_at,
    as_of: r.as_of,
    entries: r.entries.map((e): RegistryEntryConfig => {
      const s = e.statement;
      return {
        address: getAddress(s.address),
        kind: s.kind,
        chain: s.chain,
        role: s.role,
        venue: s.venue,
        label: s.label,
        holds_protocol_funds: s.holds_protocol_funds,
        backs_kusd: s.backs_kusd,
        ref: `published:${s.role}`,
        ...(s.kind === "eoa" && e.membership_signature ? { published: { signature: e.membership_signature } } : {}),
        ...(s.kind === "contract" ? publishedPredicates(s.membership_proof) : {}),
      };
    }),
    disclosed_venue_deposits: r.disclosed_venue_deposits.accounts.filter(onBase).map((x) => ({
      address: getAddress(x.address),
      symbol: x.symbol,
      venue: x.venue,
      chain: x.chain,
      asset: x.asset,
      what_it_is: x.what_it_is,
      receives_from: x.receives_from.map((a) => getAddress(a)),
      public_per_address_read: x.public_per_address_read,
      disclosed_at: x.disclosed_at,
    })),
  };
}

export type RegistrySourceResult = { versions: RegistryVersionConfig[]; rejected: RejectedRegistryVersion[] };

/** Reads and verifies every document of `sources`; I/O failures throw, bad documents are rejected. */
export async function loadRegistrySource(
  sources: string[],
  expectedOperator: Address,
  rpcUrl: string,
): Promise<RegistrySourceResult> {
  // Counted under "indexing" in kusd_rpc_calls_total: the registry is read when the indexer starts.
  const client = createPublicClient({ transport: countedHttp(rpcUrl, "indexing", { timeout: 15_000, retryCount: 2 }) });
  const ethCall = async (to: string, data: Hex, block: number) =>
    (await client.call({ to: to as Address, data, blockNumber: BigInt(block) })).data ?? "0x";
  const versions = new Map<number, RegistryVersionConfig>();
  const claimed = new Set<number>();
  const rejected: RejectedRegistryVersion[] = [];
  for (const source of sources) {
    for (const doc of await readSource(source)) {
      const claimedVersion = (doc as { registry?: { registry_version?: unknown } } | null)?.registry?.registry_version;
      const version = typeof claimedVersion === "number" ? claimedVersion : null;
      const reject = (failed: RejectedRegistryVersion["failed"]) =>
        rejected.push({ registry_version: version, source, failed });
      const { verified, checks } = await verifyRegistryDocument(doc, ethCall);
      // A verified document passed the schema, so parsing it again only types it.
      const r = verified ? RegistryDocumentSchema.safeParse(doc).data?.registry : undefined;
      if (!r) {
        reject(checks.filter((c) => !c.ok).map(({ name, detail }) => ({ name, ...(detail ? { detail } : {}) })));
        continue;
      }
      if (getAddress(r.operator) !== getAddress(expectedOperator)) {
        reject([
          { name: "operator", detail: `published by ${r.operator}, the configured operator is ${expectedOperator}` },
        ]);
        continue;
      }
      const offBase = r.disclosed_venue_deposits.accounts.filter((x) => !onBase(x));
      if (offBase.length > 0) {
        reject(
          offBase.map((x) => ({
            name: "disclosed_venue_deposits",
            detail: `${x.address} is disclosed on ${x.chain}; only Base deposits are read`,
          })),
        );
        continue;
      }
      if (version === null || claimed.has(version)) {
        reject([{ name: "registry_version", detail: `version ${version} is published more than once` }]);
        if (version !== null) versions.delete(version); // two documents claim one version: use neither
        continue;
      }
      claimed.add(version);
      versions.set(version, versionFromPublished(r));
    }
  }
  return { versions: [...versions.values()].sort((a, b) => a.registry_version - b.registry_version), rejected };
}

/** The network with KUSD_REGISTRY_SOURCE (comma-separated files or URLs) applied, when set. */
export async function applyRegistrySource(
  network: NetworkConfig,
  env: Pick<ServiceEnv, "KUSD_REGISTRY_SOURCE">,
): Promise<NetworkConfig> {
  const sources = env.KUSD_REGISTRY_SOURCE ?? [];
  if (sources.length === 0) return network;
  const { versions, rejected } = await loadRegistrySource(
    sources,
    network.registry.operator,
    network.reporting.readRpc.base,
  );
  for (const r of rejected)
    console.warn(
      `registry version ${r.registry_version ?? "?"} from ${r.source} failed verification and is not used: ${r.failed.map((f) => f.name).join(", ")}`,
    );
  const accounts = new Set(network.registryAccounts);
  for (const v of versions) {
    for (const e of v.entries) accounts.add(e.address);
    for (const x of v.disclosed_venue_deposits) accounts.add(x.address);
  }
  return {
    ...network,
    registryAccounts: [...accounts],
    registry: {
      ...network.registry,
      versions: [...network.registry.versions, ...versions],
      rejected: [...network.registry.rejected, ...rejected],
    },
  };
}
