/**
 * The EVM a read runs in, at one block: @ethereumjs/evm with the chain's rules and the block's
 * context taken from the header that hashed to the trusted block hash (number, time, base fee,
 * coinbase, gas limit, prevrandao), over a ProvenStateManager.
 *
 * The rules are Osaka's: Base runs Osaka since its Azul upgrade (2026-05-28), with P256VERIFY at
 * 0x100 priced as EIP-7951 prices it (RIP-7212's precompile since Fjord), and the devnet's anvil
 * runs Osaka (its default hardfork). Before Azul Base ran Prague's rules (Isthmus): a read that
 * used what Osaka changed (CLZ, MODEXP's bounds and price, P256VERIFY's price) could execute
 * otherwise here than there, and then fails as differing, never passes.
 */
import { createCustomCommon, Hardfork, Mainnet } from "@ethereumjs/common";
import { createEVM, type EVM } from "@ethereumjs/evm";
import { createAddressFromString, hexToBytes } from "@ethereumjs/util";
import type { RpcHeader } from "./header.js";
import type { ProvenState } from "./proven-state.js";
import { ProvenStateManager } from "./proven-state-manager.js";

/** The block's context as the EVM reads it (`Block` of @ethereumjs/evm). */
type BlockContext = NonNullable<Parameters<EVM["runCall"]>[0]["block"]>;

/** The call reads what the proven header does not give: refused, like an unproven slot. */
export class BlockContextError extends Error {
  override name = "BlockContextError";
}

/** EIP-4844's MIN_BASE_FEE_PER_BLOB_GAS: the blob base fee of a block without excess blob gas. */
const MIN_BASE_FEE_PER_BLOB_GAS = 1n;

export function chainRules(chainId: number) {
  return createCustomCommon({ chainId }, Mainnet, { hardfork: Hardfork.Osaka });
}

export function blockContext(h: RpcHeader): BlockContext {
  const excessBlobGas = h.excessBlobGas ? BigInt(h.excessBlobGas) : null;
  return {
    header: {
      number: BigInt(h.number),
      coinbase: createAddressFromString(h.miner),
      timestamp: BigInt(h.timestamp),
      difficulty: BigInt(h.difficulty),
      prevRandao: hexToBytes(h.mixHash),
      gasLimit: BigInt(h.gasLimit),
      ...(h.baseFeePerGas ? { baseFeePerGas: BigInt(h.baseFeePerGas) } : {}),
      getBlobGasPrice: () => {
        if (excessBlobGas === null) return undefined;
        if (excessBlobGas === 0n) return MIN_BASE_FEE_PER_BLOB_GAS;
        // The price follows from the fork's blob schedule, which nothing here proves.
        throw new BlockContextError(
          `the call reads the blob base fee of block ${BigInt(h.number)}, whose excess blob gas ${excessBlobGas} is not priced here`,
        );
      },
    },
  };
}

/**
 * BLOCKHASH answers from the proven header: its parent's hash. An older block's hash would need
 * the headers between, which are not proven here: the call is refused.
 */
function provenBlockHashes(h: RpcHeader) {
  const parent = BigInt(h.number) - 1n;
  const chain = {
    async getBlock(n: number) {
      if (BigInt(n) === parent) return { hash: () => hexToBytes(h.parentHash) };
      throw new BlockContextError(
        `the call reads the hash of block ${n}: only the parent's (${parent}) is proven at block ${BigInt(h.number)}`,
      );
    },
    async putBlock() {},
    shallowCopy: () => chain,
  };
  return chain;
}

/** An EVM over `state` at the block of `header`; its state manager says what the call touched. */
export async function evmAt(state: ProvenState, header: RpcHeader, common: ReturnType<typeof chainRules>) {
  const stateManager = new ProvenStateManager(state, common);
  const evm = await createEVM({ common, stateManager, blockchain: provenBlockHashes(header) as never });
  return { evm, stateManager };
}
