/**
 * Publishes the registry versions: gathers the membership signatures (in production supplied
 * by the operator, signed offline, in a JSON file; on the devnet made with the deployment
 * file's keys), verifies every one and refuses to publish a bad one, and observes every
 * contract predicate at the indexed head. Documents are built once per process.
 */

import { readFileSync } from "node:fs";
import type { ServiceEnv } from "@kusd/config";
import type { RegistryEntryConfig, RegistryVersionConfig } from "@kusd/core";
import {
  buildRegistryDocument,
  type ContractProof,
  guardianOf,
  hasAdminRole,
  membershipMessage,
  type Observation,
  ownedBy,
  type Predicate,
  type PredicateSpec,
  predicateHolds,
  predicateOf,
  REGISTRY_OPERATOR_NAME,
  type RegistryDocument,
  RegistryPublishError,
  safeOwnedBy,
  timelockProposer,
} from "@kusd/core";
import { type Address, getAddress, type Hex, isHex, recoverMessageAddress } from "viem";
import type { ReportContext } from "../context.js";
import { ApiError } from "../http/errors.js";
import { indexedHead } from "../io/indexed-reads.js";

/** address (lower case) → as_of → signature */
export type SignatureBook = Record<string, Record<string, Hex>>;

/**
 * The membership signatures: those the network document carries, those published with versions
 * read from KUSD_REGISTRY_SOURCE, and the operator's own (signed offline) from the
 * KUSD_REGISTRY_SIGNATURES file. Signatures are public once published; no key is involved here.
 */
export function loadSignatureBook(
  ctx: ReportContext,
  env: Pick<ServiceEnv, "KUSD_REGISTRY_SIGNATURES">,
): SignatureBook {
  const book: SignatureBook = structuredClone(ctx.network.registry.signatures);
  for (const v of ctx.network.registry.versions) {
    for (const e of v.entries) {
      if (!e.published || !("signature" in e.published)) continue;
      book[e.address.toLowerCase()] = { ...book[e.address.toLowerCase()], [v.as_of]: e.published.signature };
    }
  }
  const file = env.KUSD_REGISTRY_SIGNATURES;
  if (!file) return book;
  const raw = JSON.parse(readFileSync(file, "utf8")) as SignatureBook;
  for (const [a, v] of Object.entries(raw)) book[a.toLowerCase()] = { ...book[a.toLowerCase()], ...v };
  return book;
}

/**
 * Which call proves control of a contract entry, by its registry role. Since the 2026-08-06
 * handover the admin of kUSD and the PSMs is the timelock, not the multisig: with a timelock
 * configured their proof is the timelock's admin role, chained to the multisig as its proposer.
 */
export function predicateSpecsFor(
  e: RegistryEntryConfig,
  operator: Address,
  admins: { multisig: Address; timelock: Address | null },
): { primary: PredicateSpec; secondary: PredicateSpec | null; why: string } | null {
  const { multisig, timelock } = admins;
  const what = `${e.label} (${e.role})`;
  const chainToKey = safeOwnedBy(multisig, operator);
  if (e.role === "admin_timelock")
    return {
      primary: timelockProposer(e.address, multisig),
      secondary: chainToKey,
      why: "A timelock acts only on what its proposer schedules; the proposer is the multisig, which chains to the operator's signing key.",
    };
  if (e.role === "pause_guardian")
    return {
      primary: guardianOf(e.address, multisig),
      secondary: chainToKey,
      why: "The guardian acts only at the multisig's request; the multisig chains to the operator's signing key.",
    };
  if (timelock && /^(psm_|liability_token)/.test(e.role)) {
    return {
      primary: hasAdminRole(e.address, timelock, what),
      secondary: timelockProposer(timelock, multisig),
      why: "Administered by the timelock (48 h delay), which only the multisig can drive.",
    };
  }
  const why =
    "A contract has no key to sign with; its admin is shown on chain instead, and that admin chains to the operator's signing key.";
  if (e.role === "admin_multisig")
    return {
      primary: safeOwnedBy(e.address, operator),
      secondary: null,
      why: "A Safe cannot sign a message on its own; its owner set names the operator's signing key.",
    };
  if (e.role.startsWith("treasury")) return { primary: ownedBy(e.address, multisig, what), secondary: chainToKey, why };
  if (e.role === "incentive_escrow")
    return {
      primary: hasAdminRole(e.address, operator, what),
      secondary: null,
      why: "Administered directly by the operator's signing key, itself a signed entry.",
    };
  if (/^(psm_|vault_|staked_vault|insurance_fund|liability_token)/.test(e.role))
    return { primary: hasAdminRole(e.address, multisig, what), secondary: chainToKey, why };
  return null;
}

/** A contract entry's predicates: as published (a version from KUSD_REGISTRY_SOURCE), else by its role. */
function contractPredicates(
  e: RegistryEntryConfig,
  operator: Address,
  admins: { multisig: Address; timelock: Address | null },
  chainId: number,
  rpc: string,
  version: number,
) {
  if (e.published && "predicate" in e.published) return e.published;
  const specs = predicateSpecsFor(e, operator, admins);
  if (!specs)
    throw new RegistryPublishError(`no membership predicate for role ${e.role}`, {
      address: e.address,
      registry_version: version,
    });
  return {
    predicate: predicateOf(specs.primary, chainId, rpc),
    secondary: specs.secondary ? predicateOf(specs.secondary, chainId, rpc) : null,
    why: specs.why,
  };
}

/**
 * The operator-supplied membership signatures of a version's externally owned accounts, each
 * checked to recover to its account; a missing or wrong one refuses the whole version.
 */
export async function checkedSignatures(v: RegistryVersionConfig, book: SignatureBook): Promise<Map<string, Hex>> {
  const signatures = new Map<string, Hex>();
  for (const e of v.entries.filter((x) => x.kind === "eoa")) {
    const sig = book[e.address.toLowerCase()]?.[v.as_of];
    if (!sig || !isHex(sig))
      throw new RegistryPublishError(`no membership signature for ${e.address} as of ${v.as_of}`, {
        address: e.address,
        registry_version: v.registry_version,
      });
    const recovered = await recoverMessageAddress({ message: membershipMessage(v.as_of), signature: sig }).catch(
      () => null,
    );
    if (!recovered || getAddress(recovered) !== getAddress(e.address)) {
      throw new RegistryPublishError(
        `membership signature of ${e.address} recovers to ${recovered ?? "nothing"}: refusing to publish`,
        { address: e.address, registry_version: v.registry_version },
      );
    }
    signatures.set(e.address.toLowerCase(), sig);
  }
  return signatures;
}

export class RegistryService {
  private docs: Promise<Map<number, RegistryDocument>> | null = null;

  constructor(
    private readonly ctx: ReportContext,
    private readonly signatures: () => Promise<SignatureBook> | SignatureBook,
  ) {}

  versions(): readonly RegistryVersionConfig[] {
    return this.ctx.network.registry.versions;
  }

  /** Every published version, newest last. Throws RegistryPublishError when a proof is bad. */
  all(): Promise<Map<number, RegistryDocument>> {
    this.docs ??= this.build().catch((e) => {
      this.docs = null; // retry on the next request (the indexer may have been catching up)
      throw e;
    });
    return this.docs;
  }

  async version(n?: number): Promise<RegistryDocument> {
    const docs = await this.all();
    if (docs.size === 0)
      throw new ApiError("registry_not_configured", "no registry version is configured for this network");
    const wanted = n ?? Math.max(...docs.keys());
    const doc = docs.get(wanted);
    if (!doc)
      throw new ApiError("registry_version_not_found", `no registry version ${wanted}`, {
        versions: [...docs.keys()],
      });
    return doc;
  }

  private async observe(p: Predicate, block: bigint): Promise<Observation> {
    const rpcUsed = this.ctx.network.reporting.publicRpc.base;
    let observed: Hex = "0x";
    try {
      observed = (await this.ctx.base.call({ to: p.to, data: p.data, blockNumber: block })).data ?? "0x";
    } catch {
      observed = "0x";
    }
    return {
      observed_at_block: Number(block),
      observed_value: observed,
      holds: predicateHolds(p, observed),
      rpc_used: rpcUsed,
    };
  }

  private async build(): Promise<Map<number, RegistryDocument>> {
    const n = this.ctx.network;
    const head = await indexedHead(this.ctx.db, "base");
    if (!head) throw new ApiError("not_indexed_yet", "the indexer has not started on base yet");
    const book = await this.signatures();
    const operator = getAddress(n.registry.operator);
    const multisig = getAddress(n.reporting.multisig);
    const chainId = n.chains.base.id;
    const rpc = n.reporting.publicRpc.base;
    const proofs = new Map<string, ContractProof>();
    const docs = new Map<number, RegistryDocument>();
    for (const v of [...n.registry.versions].sort((a, b) => a.registry_version - b.registry_version)) {
      const signatures = await checkedSignatures(v, book);
      for (const e of v.entries.filter((x) => x.kind === "contract")) {
        if (proofs.has(e.address.toLowerCase())) continue;
        const { predicate, secondary, why } = contractPredicates(
          e,
          operator,
          { multisig, timelock: n.reporting.timelock ? getAddress(n.reporting.timelock) : null },
          chainId,
          rpc,
          v.registry_version,
        );
        proofs.set(e.address.toLowerCase(), {
          predicate,
          secondary,
          observation: await this.observe(predicate, head.blockNumber),
          secondaryObservation: secondary ? await this.observe(secondary, head.blockNumber) : null,
          why,
        });
      }
      docs.set(
        v.registry_version,
        buildRegistryDocument({
          operatorName: REGISTRY_OPERATOR_NAME,
          operator,
          version: v,
          signatures,
          proofs,
          publicStateRead: (e) =>
            e.kind === "eoa"
              ? `cast balance ${getAddress(e.address)} --rpc-url ${rpc}`
              : e.holds_protocol_funds
                ? `cast call ${n.usdc.address} 'balanceOf(address)(uint256)' ${getAddress(e.address)} --rpc-url ${rpc}`
                : null,
          hedgeVenues: {
            [n.reporting.venue.name]: {
              public_per_address_read: `POST ${n.reporting.venue.url ?? "https://api.hyperliquid.xyz/info"} {"type":"clearinghouseState","user":"<address>"}`,
              requires_authentication: false,
              returns: "account equity, positions and margin of any address",
            },
          },
        }),
      );
    }
    return docs;
  }
}
