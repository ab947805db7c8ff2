/**
 * On-chain membership predicates (spec 2.6 rule 1): a contract cannot sign, so its entry names
 * an `eth_call` whose answer shows the operator controls it. Admin roles chain to the multisig,
 * and the multisig's owners to the operator's signing key (the secondary predicate).
 */
import {
  type Abi,
  type Address,
  decodeAbiParameters,
  encodeFunctionData,
  getAddress,
  type Hex,
  parseAbiItem,
  zeroHash,
} from "viem";
import type { PublishedPredicate } from "./document-schema.js";

export type Expectation = { expect: Hex } | { expect_address: Address } | { expect_contains_address: Address };

export type Predicate = {
  kind: "eth_call";
  chain: "base";
  chain_id: number;
  to: Address;
  data: Hex;
  means: string;
  reproduction: string;
} & Expectation;

export type PredicateSpec = {
  to: Address;
  signature: string;
  args: readonly (Address | Hex)[];
  expectation: Expectation;
  means: string;
};

const TRUE_WORD: Hex = `0x${"0".repeat(63)}1`;

/**
 * A published predicate as the configuration holds it: one expectation, the first of `expect`,
 * `expect_address` and `expect_contains_address` it names; null when it names none (the document
 * then fails verification before it is read back).
 */
export function predicateFromPublished(p: PublishedPredicate): Predicate | null {
  const { expect, expect_address, expect_contains_address, ...call } = p;
  if (expect !== undefined) return { ...call, expect };
  if (expect_address !== undefined) return { ...call, expect_address };
  if (expect_contains_address !== undefined) return { ...call, expect_contains_address };
  return null;
}

/** "hasRole(bytes32,address)(bool)" → calldata, and the cast command that makes the same call. */
export function predicateOf(spec: PredicateSpec, chainId: number, rpcUrl: string): Predicate {
  const m = /^(\w+)\(([^()]*)\)\((.*)\)$/.exec(spec.signature)!;
  const abi: Abi = [parseAbiItem(`function ${m[1]}(${m[2]}) view returns (${m[3]})`)];
  const data = encodeFunctionData({ abi, functionName: m[1]!, args: spec.args });
  return {
    kind: "eth_call",
    chain: "base",
    chain_id: chainId,
    to: spec.to,
    data,
    ...spec.expectation,
    means: spec.means,
    reproduction: `cast call ${spec.to} '${spec.signature}'${spec.args.length ? ` ${spec.args.join(" ")}` : ""} --rpc-url ${rpcUrl}`,
  };
}

export const hasAdminRole = (contract: Address, holder: Address, what: string): PredicateSpec => ({
  to: contract,
  signature: "hasRole(bytes32,address)(bool)",
  args: [zeroHash, holder],
  expectation: { expect: TRUE_WORD },
  means: `${holder} holds DEFAULT_ADMIN_ROLE on ${what}`,
});

const PROPOSER_ROLE = "0xb09aa5aeb3702cfd50b6b62bc4532604938f21248a27a1d5ca736082b6819cc1" as Hex; // keccak256("PROPOSER_ROLE")

/** The timelock acts only on what the multisig proposes: the multisig holds PROPOSER_ROLE. */
export const timelockProposer = (timelock: Address, proposer: Address): PredicateSpec => ({
  to: timelock,
  signature: "hasRole(bytes32,address)(bool)",
  args: [PROPOSER_ROLE, proposer],
  expectation: { expect: TRUE_WORD },
  means: `${proposer} holds PROPOSER_ROLE on the timelock ${timelock}: only it can schedule the timelock's calls`,
});

/** The pause guardian obeys one caller, named in its immutable `safe()`. */
export const guardianOf = (guardian: Address, safe: Address): PredicateSpec => ({
  to: guardian,
  signature: "safe()(address)",
  args: [],
  expectation: { expect_address: safe },
  means: `the pause guardian ${guardian} acts only at the request of ${safe}`,
});

export const ownedBy = (contract: Address, owner: Address, what: string): PredicateSpec => ({
  to: contract,
  signature: "owner()(address)",
  args: [],
  expectation: { expect_address: owner },
  means: `${what} is owned by ${owner}`,
});

export const safeOwnedBy = (safe: Address, signer: Address): PredicateSpec => ({
  to: safe,
  signature: "getOwners()(address[])",
  args: [],
  expectation: { expect_contains_address: signer },
  means: `the admin multisig counts the operator's signing key ${signer} among its owners`,
});

/** Whether `returned` (the raw eth_call answer) satisfies the predicate's expectation. */
export function predicateHolds(p: Expectation, returned: Hex): boolean {
  try {
    if ("expect" in p) return returned.toLowerCase() === p.expect.toLowerCase();
    if ("expect_address" in p) {
      const [a] = decodeAbiParameters([{ type: "address" }], returned);
      return getAddress(a) === getAddress(p.expect_address);
    }
    const [list] = decodeAbiParameters([{ type: "address[]" }], returned);
    return list.some((a) => getAddress(a) === getAddress(p.expect_contains_address));
  } catch {
    return false; // an answer of the wrong shape does not hold
  }
}
