/**
 * EIP-1186 proofs (eth_getProof) checked in plain JavaScript with @ethereumjs/mpt: an account's
 * proof against the block's state root gives its nonce, balance, storage root and code hash; each
 * storage slot's proof against that storage root gives the slot's value. A node that lies about a
 * value cannot make its proof hash up to a root it does not control.
 */
import { verifyMerkleProof } from "@ethereumjs/mpt";
import { type Address, fromRlp, type Hex, hexToBigInt, hexToBytes, keccak256, pad, toHex } from "viem";

export class ProofError extends Error {
  override name = "ProofError";
  constructor(
    message: string,
    readonly account: Address,
    readonly slot: Hex | null,
  ) {
    super(message);
  }
}

/** `exists` false: the trie proves no account at the address (EXTCODEHASH tells it from an empty one). */
export type ProvenAccount = { exists: boolean; nonce: bigint; balance: bigint; storageRoot: Hex; codeHash: Hex };

/** The trie's empty root (keccak256 of RLP("")): an account with no storage, or none at all. */
export const EMPTY_TRIE_ROOT = keccak256("0x80");
export const EMPTY_CODE_HASH = keccak256("0x");

async function provenValue(root: Hex, key: Hex, proof: readonly Hex[]): Promise<Uint8Array | null> {
  return verifyMerkleProof(
    hexToBytes(key),
    proof.map((n) => hexToBytes(n)),
    { root: hexToBytes(root), useKeyHashing: true },
  );
}

/** The account at `address` as the state root proves it (an absent account: all zero, empty storage). */
export async function proveAccount(stateRoot: Hex, address: Address, proof: readonly Hex[]): Promise<ProvenAccount> {
  let leaf: Uint8Array | null;
  try {
    leaf = await provenValue(stateRoot, address, proof);
  } catch {
    throw new ProofError(`the account proof of ${address} does not hash to the block's state root`, address, null);
  }
  if (leaf === null)
    return { exists: false, nonce: 0n, balance: 0n, storageRoot: EMPTY_TRIE_ROOT, codeHash: EMPTY_CODE_HASH };
  const [nonce, balance, storageRoot, codeHash] = fromRlp(toHex(leaf), "hex") as Hex[];
  const int = (x: Hex | undefined) => (x === undefined || x === "0x" ? 0n : hexToBigInt(x));
  return { exists: true, nonce: int(nonce), balance: int(balance), storageRoot: storageRoot!, codeHash: codeHash! };
}

/** The value of `slot` as the account's storage root proves it (zero when absent). */
export async function proveSlot(storageRoot: Hex, account: Address, slot: Hex, proof: readonly Hex[]): Promise<bigint> {
  const key = pad(slot, { size: 32 });
  // An account with no storage at all: its trie is the empty one, and there is nothing to walk.
  if (storageRoot === EMPTY_TRIE_ROOT && proof.length === 0) return 0n;
  let leaf: Uint8Array | null;
  try {
    leaf = await provenValue(storageRoot, key, proof);
  } catch {
    throw new ProofError(
      `the storage proof of slot ${key} of ${account} does not hash to the account's storage root`,
      account,
      key,
    );
  }
  if (leaf === null) return 0n;
  const value = fromRlp(toHex(leaf), "hex") as Hex;
  return value === "0x" ? 0n : hexToBigInt(value);
}
