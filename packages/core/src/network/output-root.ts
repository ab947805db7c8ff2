/**
 * The output root: what Base posts on Ethereum for an L2 block, and what a reader recomputes from
 * the block to tie it to L1. Version 0 of the OP-stack output (base/contracts
 * src/libraries/Hashing.sol `hashOutputRootProof`, Types.OutputRootProof):
 * `keccak256(abi.encode(bytes32(0), stateRoot, messagePasserStorageRoot, blockHash))`, where the
 * message passer's storage root is the storage trie root of the L2ToL1MessagePasser predeploy in
 * that block's state (`storageHash` of `eth_getProof` on it, proven against `stateRoot`).
 */
import { type Address, encodeAbiParameters, type Hex, keccak256, zeroHash } from "viem";

/** Base's L2ToL1MessagePasser predeploy: every withdrawal to L1 is a slot of its storage. */
export const L2_TO_L1_MESSAGE_PASSER: Address = "0x4200000000000000000000000000000000000016";

export const OUTPUT_ROOT_VERSION_0: Hex = zeroHash;

/** The three commitments of one L2 block that its output root hashes together. */
export type OutputRootProof = { stateRoot: Hex; messagePasserStorageRoot: Hex; blockHash: Hex };

export function outputRootV0(p: OutputRootProof): Hex {
  return keccak256(
    encodeAbiParameters(
      [{ type: "bytes32" }, { type: "bytes32" }, { type: "bytes32" }, { type: "bytes32" }],
      [OUTPUT_ROOT_VERSION_0, p.stateRoot, p.messagePasserStorageRoot, p.blockHash],
    ),
  );
}
