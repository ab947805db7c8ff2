/**
 * POST /instant-read (spec 2.2): request validation, the pinned ERC-20 read (the read plan a
 * reader re-reads it with, packages/verify/src/read-plan/erc20-reads.ts), and the signed payload
 * (buildInstantReadPayload). Validation runs before any payment is asked, so bad input is never charged: each
 * refusal is an ApiError with a stable code. The request's shape is InstantReadRequestSchema, the
 * same schema the descriptor and the x402 discovery extension publish.
 */

import {
  buildInstantReadPayload,
  INSTANT_READ_CHAINS,
  type InstantReadChain,
  type InstantReadPayload,
  InstantReadRequestSchema,
} from "@kusd/core";
import { type Address, getAddress, isAddress, type PublicClient } from "viem";
import { readErc20 } from "../../packages/verify/src/index.js";
import { ApiError, badRequest } from "../http/errors.js";

export const CHAINS = INSTANT_READ_CHAINS;
export type ReadChain = InstantReadChain;
export type InstantReadRequest = { chain: ReadChain; address: Address };

/** Parses and checks the request body (not yet the chain): 400 with a stable code otherwise. */
export function parseInstantRead(raw: string): InstantReadRequest {
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    throw badRequest("invalid_json", "the request body must be a JSON object");
  }
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw badRequest("invalid_body", "the request body must be a JSON object");
  const b = body as Record<string, unknown>;
  const parsed = InstantReadRequestSchema.safeParse(b);
  if (!parsed.success) {
    // One refusal, the most basic first: a field we do not know, then the chain, then the address.
    const issues = parsed.error.issues;
    const unknown = issues.flatMap((i) => (i.code === "unrecognized_keys" ? i.keys : []));
    if (unknown.length)
      throw badRequest("unknown_field", `unknown field ${unknown.join(", ")}: only chain and address are accepted`, {
        fields: unknown,
      });
    if (issues.some((i) => i.path[0] === "chain"))
      throw badRequest("invalid_chain", `chain must be one of ${CHAINS.join(", ")}`, {
        chain: b.chain,
        allowed: CHAINS,
      });
    if (b.address === undefined || b.address === null || b.address === "")
      throw badRequest("address_required", "address is required");
    throw badRequest("invalid_address", "address must be 0x followed by 40 hex characters", { address: b.address });
  }
  const { chain, address } = parsed.data;
  if (!isAddress(address, { strict: false }))
    throw badRequest("invalid_address", "address must be 0x followed by 40 hex characters", { address });
  // Mixed case is an EIP-55 checksum: a mistyped one is refused, never priced as another address.
  if (
    address !== address.toLowerCase() &&
    address.slice(2) !== address.slice(2).toUpperCase() &&
    !isAddress(address, { strict: true })
  ) {
    throw badRequest(
      "invalid_address_checksum",
      "the address's mixed case is not its EIP-55 checksum: check it, or send it all lower case",
      { address, checksummed: getAddress(address) },
    );
  }
  return { chain, address: getAddress(address) };
}

/** Spec 4 rule 3: the operator's own addresses are refused (403, documented), before any charge. */
export function refuseOperatorOwned(address: Address, operatorOwned: ReadonlySet<string>) {
  if (operatorOwned.has(address.toLowerCase())) {
    throw new ApiError(
      "operator_owned_address",
      "instant reads of the operator's own accounts and contracts are refused: use the free reports (/api/por, /api/por/accounts)",
      { address },
    );
  }
}

export type TokenRead = {
  symbol: string;
  decimals: number;
  totalSupply: bigint;
  blockNumber: bigint;
  blockHash: `0x${string}`;
  timestamp: number;
};

export class ChainUnavailableError extends ApiError {
  constructor(chain: string, cause: string) {
    super("chain_unavailable", `the ${chain} RPC did not answer; nothing was charged`, { chain, cause });
  }
}

/**
 * Reads symbol, decimals and totalSupply at one pinned block. An address without code, or one
 * whose ERC-20 reads revert, is the caller's error (422); an RPC failure is ours (503).
 */
export async function readToken(client: PublicClient, chain: ReadChain, address: Address): Promise<TokenRead> {
  let block: { number: bigint; hash: `0x${string}`; timestamp: bigint };
  let code: `0x${string}` | undefined;
  try {
    const b = await client.getBlock({ blockTag: "latest" });
    block = { number: b.number!, hash: b.hash!, timestamp: b.timestamp };
    code = await client.getCode({ address, blockNumber: block.number });
  } catch (e) {
    throw new ChainUnavailableError(chain, (e as Error).message.split("\n")[0]!);
  }
  if (!code || code === "0x")
    throw new ApiError("not_a_contract", `no contract code at ${address} on ${chain}`, {
      address,
      chain,
      blockNumber: Number(block.number),
    });
  const reads = await readErc20(client, address, block.number);
  const failed = [reads.symbol, reads.decimals, reads.totalSupply].find((r) => r.status === "rejected");
  if (failed) {
    const message = (failed.reason as Error)?.message ?? "";
    if (/fetch failed|timed out|HTTP request failed|ECONNREFUSED/i.test(message))
      throw new ChainUnavailableError(chain, message.split("\n")[0]!);
    throw new ApiError(
      "not_an_erc20",
      `the contract at ${address} does not answer symbol(), decimals() and totalSupply() as an ERC-20`,
      { address, chain },
    );
  }
  const value = <T>(r: PromiseSettledResult<T>) => (r as PromiseFulfilledResult<T>).value;
  return {
    symbol: value(reads.symbol),
    decimals: value(reads.decimals),
    totalSupply: value(reads.totalSupply),
    blockNumber: block.number,
    blockHash: block.hash,
    timestamp: Number(block.timestamp),
  };
}

/** The signed payload of a token read: the block, by number and hash, is inside the signed bytes. */
export function instantReadPayload(
  r: InstantReadRequest & { chainId: number; token: TokenRead; timestamp: number },
): InstantReadPayload {
  return buildInstantReadPayload({
    chain: r.chain,
    chainId: r.chainId,
    address: r.address,
    symbol: r.token.symbol,
    decimals: r.token.decimals,
    totalSupply: r.token.totalSupply,
    block: { number: Number(r.token.blockNumber), hash: r.token.blockHash, timestamp: r.token.timestamp },
    timestamp: r.timestamp,
  });
}
