/**
 * `--l1-rpc`: the block hash the proofs rest on, proven from the output roots Base posts on
 * Ethereum (../l1/base-block-from-l1.ts), and the check that says so. A block not proven from
 * Ethereum (pending, or refused) keeps the document's own hash for the reads, so the reader still
 * sees every figure, and the check fails or is pending.
 */
import { BASE_PROOF_SYSTEM } from "@kusd/core";
import { createPublicClient, type Hex, http } from "viem";
import { type L1Anchoring, proveBaseBlockFromL1 } from "../l1/base-block-from-l1.js";
import { L1ReadError } from "../l1/proven-l1.js";
import { SourceError } from "./errors.js";
import type { Check } from "./report.js";

export type L1Anchor = { anchor: { blockHash: Hex; source: string }; l1: L1Anchoring };

/** The hash of `block` proven from Ethereum (`l1`) with the headers of the Base RPC `baseRpc`. */
export async function anchorFromL1(
  baseRpc: string,
  l1: { rpc: string; blockHash: Hex | null },
  block: { number: number; hash: Hex },
): Promise<L1Anchor> {
  let proven: L1Anchoring;
  try {
    proven = await proveBaseBlockFromL1({
      l1: createPublicClient({ transport: http(l1.rpc, { retryCount: 1, batch: true }) }),
      l1BlockHash: l1.blockHash,
      base: createPublicClient({ transport: http(baseRpc, { retryCount: 1, batch: true }) }),
      block: BigInt(block.number),
      system: BASE_PROOF_SYSTEM,
    });
  } catch (e) {
    const message = (e as Error).message.split("\n")[0] ?? "";
    if (e instanceof L1ReadError && e.kind === "unreachable") throw new SourceError(message, { source: l1.rpc });
    throw new SourceError(`proving block ${block.number} from Ethereum: ${message}`, { source: l1.rpc });
  }
  if (proven.status === "proven" && proven.blockHash)
    return {
      anchor: {
        blockHash: proven.blockHash,
        source: `Base block ${block.number}'s hash proven from Ethereum block ${proven.l1.number} (${proven.l1.hash}) of the Ethereum RPC ${l1.rpc}`,
      },
      l1: proven,
    };
  return {
    anchor: {
      blockHash: block.hash,
      source: `the document's own hash: ${proven.status === "pending" ? "pending" : "not proven"} on Ethereum`,
    },
    l1: proven,
  };
}

/** The check a reader reads: proven (with the game's state), pending, or why not. */
export function l1Check(l1: L1Anchoring): Check {
  return {
    name: "ethereum",
    ok: l1.status === "proven",
    detail: l1.status === "pending" ? `PENDING: ${l1.detail}` : l1.detail,
  };
}
