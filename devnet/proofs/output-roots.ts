/**
 * Output roots of the Base devnet's blocks, computed as Base's proposer computes them: the block's
 * hash and state root from its header, the message passer's storage root from `eth_getProof` in
 * that block's state. Storage roots are kept by block hash, so a block read again after a reorg
 * gets its own.
 */
import { L2_TO_L1_MESSAGE_PASSER, outputRootV0 } from "@kusd/core";
import type { Hex, PublicClient } from "viem";

export type BlockOutput = {
  number: bigint;
  blockHash: Hex;
  stateRoot: Hex;
  messagePasserStorageRoot: Hex;
  outputRoot: Hex;
};

export class OutputRoots {
  private readonly storageRoots = new Map<Hex, Hex>();

  constructor(private readonly client: PublicClient) {}

  /** The output root of each block, in order; null for a block the chain does not have (yet). */
  async at(numbers: readonly bigint[]): Promise<(BlockOutput | null)[]> {
    const blocks = await Promise.all(
      numbers.map((blockNumber) =>
        this.client.getBlock({ blockNumber }).then(
          (b) => b,
          () => null,
        ),
      ),
    );
    await Promise.all(
      blocks.map(async (b) => {
        if (!b?.hash || this.storageRoots.has(b.hash)) return;
        // Named by hash (EIP-1898): the proof is of this block's state even if the chain moved on.
        const proof = await this.client.request({
          method: "eth_getProof",
          params: [L2_TO_L1_MESSAGE_PASSER, [], { blockHash: b.hash } as never],
        });
        this.storageRoots.set(b.hash, proof.storageHash);
      }),
    );
    return blocks.map((b) => {
      if (!b?.hash) return null;
      const messagePasserStorageRoot = this.storageRoots.get(b.hash)!;
      return {
        number: b.number,
        blockHash: b.hash,
        stateRoot: b.stateRoot,
        messagePasserStorageRoot,
        outputRoot: outputRootV0({ stateRoot: b.stateRoot, messagePasserStorageRoot, blockHash: b.hash }),
      };
    });
  }
}
