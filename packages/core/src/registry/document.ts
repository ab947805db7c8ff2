/**
 * The account registry document (spec 2.6), one per published version. Pure: built from the
 * operator's registry configuration, the membership signatures the operator supplies, and the
 * predicate observations made at a recorded block.
 */
import { type Address, getAddress, type Hex } from "viem";
import { attestationHash, canonicalJson } from "../attestation/canonical.js";
import { KusdError } from "../errors.js";
import type { RegistryEntryConfig, RegistryVersionConfig } from "../network/registry-config.js";
import { shellQuote } from "../shell-quote.js";
import type { RegistryDocument } from "./document-schema.js";
import type { Predicate } from "./predicates.js";

export { type RegistryDocument, RegistryDocumentSchema } from "./document-schema.js";

export const REGISTRY_OPERATOR_NAME = "kerne";
export const registrySchema = (operatorName: string) => `${operatorName}-account-registry/v1`;
export const entrySchema = (operatorName: string) => `${operatorName}-account-entry/v1`;

export const MEMBERSHIP_MESSAGE_TEMPLATE =
  "I control this account. It belongs to the kUSD operator's published account registry as of %s, and every transfer out of it is subject to the registry's violation predicate.";
export const membershipMessage = (asOf: string) => MEMBERSHIP_MESSAGE_TEMPLATE.replace("%s", asOf);

export type Observation = { observed_at_block: number; observed_value: Hex; holds: boolean; rpc_used: string };

export type ContractProof = {
  predicate: Predicate;
  secondary: Predicate | null;
  observation: Observation;
  secondaryObservation: Observation | null;
  why: string;
};

export type RegistryInputs = {
  operatorName: string;
  operator: Address;
  version: RegistryVersionConfig;
  /** EIP-191 signatures over membershipMessage(as_of), by externally owned account. */
  signatures: ReadonlyMap<string, Hex>;
  proofs: ReadonlyMap<string, ContractProof>;
  publicStateRead: (e: RegistryEntryConfig) => string | null;
  hedgeVenues: Record<string, { public_per_address_read: string; requires_authentication: boolean; returns: string }>;
};

/** A proof that does not check out: the version is not published (the API answers 503). */
export class RegistryPublishError extends KusdError<{ address: Address; registry_version: number }> {
  override name = "RegistryPublishError";
  readonly code: string = "registry_proof_invalid";
}

/** account_set_digest: SHA-256 over the canonical JSON of the entries' checksummed addresses, sorted. */
export function accountSetDigest(addresses: readonly string[]): Hex {
  return attestationHash(canonicalJson([...new Set(addresses.map((a) => getAddress(a)))].sort()));
}

function entryOf(i: RegistryInputs, e: RegistryEntryConfig): RegistryDocument["registry"]["entries"][number] {
  const address = getAddress(e.address);
  const asOf = i.version.as_of;
  const message = membershipMessage(asOf);
  let membership_proof: RegistryDocument["registry"]["entries"][number]["statement"]["membership_proof"];
  let observation: RegistryDocument["registry"]["entries"][number]["statement"]["observation"] = null;
  let membership_signature: Hex | null = null;
  if (e.kind === "eoa") {
    const sig = i.signatures.get(address.toLowerCase());
    if (!sig)
      throw new RegistryPublishError(`no membership signature for ${address}`, {
        address,
        registry_version: i.version.registry_version,
      });
    membership_signature = sig;
    membership_proof = {
      kind: "eoa_signature" as const,
      as_of: asOf,
      message,
      verify: `cast wallet verify --address ${address} ${shellQuote(message)} ${sig}`,
    };
  } else {
    const p = i.proofs.get(address.toLowerCase());
    if (!p)
      throw new RegistryPublishError(`no membership predicate for contract ${address}`, {
        address,
        registry_version: i.version.registry_version,
      });
    membership_proof = {
      kind: "onchain_predicate" as const,
      as_of: asOf,
      predicate: p.predicate,
      secondary_predicate: p.secondary,
      why_not_a_signature: p.why,
    };
    observation = { ...p.observation, ...(p.secondaryObservation ? { secondary: p.secondaryObservation } : {}) };
  }
  const statement = {
    schema: entrySchema(i.operatorName),
    address,
    kind: e.kind,
    chain: e.chain,
    role: e.role,
    venue: e.venue,
    label: e.label,
    holds_protocol_funds: e.holds_protocol_funds,
    backs_kusd: e.backs_kusd,
    public_state_read: i.publicStateRead(e),
    note: null,
    membership_proof,
    observation,
    issued_at: i.version.issued_at,
  };
  const statement_canonical = canonicalJson(statement);
  return {
    statement,
    statement_canonical,
    statement_digest: attestationHash(statement_canonical),
    membership_signature,
  };
}

export function buildRegistryDocument(i: RegistryInputs): RegistryDocument {
  const v = i.version;
  const entries = v.entries.map((e) => entryOf(i, e));
  return {
    registry: {
      schema: registrySchema(i.operatorName),
      operator: getAddress(i.operator),
      registry_version: v.registry_version,
      as_of: v.as_of,
      membership_message_template: MEMBERSHIP_MESSAGE_TEMPLATE,
      membership_message: membershipMessage(v.as_of),
      specified_by:
        "interface-spec section 2.6; statement_canonical is the statement as JSON with keys sorted and no whitespace, statement_digest its SHA-256",
      completeness_claim:
        "Every account the operator controls on Base is listed. Signatures and predicates prove control of each listed account; they cannot prove that no other account exists. The claim is auditability of the chain of funds: any transfer out of a listed account to an address that is neither listed, a user redemption or withdrawal, nor a disclosed venue deposit is a published violation.",
      violation_predicate:
        "A transfer of USDC, kUSD, WETH or skUSD shares from an account listed in the registry version in force at the transfer's block time to an address that is not listed in that version, not the zero address (burn), not the redeemer paid by a PSM redemption or the receiver of an ERC-4626 withdrawal in the same transaction, not the return leg of a same-transaction flash loan, and not a venue contract disclosed under disclosed_venue_deposits of that version.",
      hedge_venue_policy: {
        rule: "Margin may be held only on venues that publish per-address state without authentication (spec 2.6 rule 4).",
        admissible_venues: i.hedgeVenues,
        inadmissible_examples: [
          "a centralised exchange sub-account (per-address state needs an API key)",
          "an OTC desk or prime broker (no public per-address read)",
        ],
      },
      disclosed_venue_deposits: {
        rule: "A venue contract the operator deposits into but does not control is named here, in a version whose issued_at precedes the deposit, with a public per-address read (spec 2.6 rule 3).",
        accounts: v.disclosed_venue_deposits.map((x) => ({
          address: getAddress(x.address),
          symbol: x.symbol,
          venue: x.venue,
          chain: x.chain,
          asset: x.asset,
          operator_controls: false,
          holds_protocol_funds: true,
          backs_kusd: false,
          what_it_is: x.what_it_is,
          receives_from: x.receives_from.map((a) => getAddress(a)),
          why_not_an_entry:
            "The operator does not control this contract; it holds deposits credited to the operator's account on the venue.",
          public_per_address_read: x.public_per_address_read,
          requires_authentication: false,
          returns: "the operator account's position or balance at the venue",
          disclosed_at: x.disclosed_at,
        })),
        funds_sent_are: "protocol funds moved to an outside venue, reported under the venue account's balance",
        what_a_balance_here_means:
          "the venue holds the operator's deposits; read the operator's balance with the public per-address read",
      },
      account_set_digest: accountSetDigest(v.entries.map((e) => e.address)),
      entries,
      issued_at: v.issued_at,
    },
  };
}
