/**
 * The block an entity query is answered at: The Graph's `block: { number }` or `{ hash }`. A
 * hash is resolved through the chain client (Ponder keeps no hash → number table the API can
 * read) and must be on the canonical chain; either way the block must be at or below the indexed
 * head, and the refusal names the head.
 */
import { BlockNotFoundError, type Hex } from "viem";
import { headReaching, type ReportContext, reportHead } from "../../context.js";
import { ApiError } from "../../http/errors.js";
import { invalid, QueryInputError } from "./query-error.js";

export type BlockHeight = { number?: bigint | null; hash?: string | null };

const HASH = /^0x[0-9a-fA-F]{64}$/;

/** The block number asked for, checked against the indexed head; null when no block was given. */
export async function resolveBlock(
  ctx: ReportContext,
  block: BlockHeight | null | undefined,
  argument = "block",
): Promise<bigint | null> {
  if (!block) return null;
  const { number, hash } = block;
  if ((number == null) === (hash == null))
    throw invalid(argument, `${argument} takes a number or a hash (one of them)`);
  const n = number ?? (await numberOfHash(ctx, hash!, argument));
  if (n < 0n) throw invalid(argument, `${argument}.number must not be negative`);
  const head = await headReaching(ctx, await reportHead(ctx), n);
  if (!head) throw new ApiError("not_indexed_yet", "the indexer has not indexed a block yet");
  if (n > head.blockNumber)
    throw new QueryInputError("block_not_indexed", `block ${n} is past the indexed head ${head.blockNumber}`, {
      argument,
      block: String(n),
      indexedHead: String(head.blockNumber),
    });
  return n;
}

async function numberOfHash(ctx: ReportContext, hash: string, argument: string): Promise<bigint> {
  if (!HASH.test(hash)) throw invalid(argument, `${argument}.hash is not a block hash (0x and 64 hex characters)`);
  const blockHash = hash.toLowerCase() as Hex;
  const block = await ctx.base.getBlock({ blockHash }).catch((e: unknown) => {
    if (e instanceof BlockNotFoundError) return null;
    throw e;
  });
  if (!block || block.number === null) throw invalid(argument, `no block has hash ${hash}`, { hash });
  // A block of an abandoned branch still answers by hash: the indexed rows at its number are the canonical block's.
  const canonical = await ctx.base.getBlock({ blockNumber: block.number });
  if (canonical.hash.toLowerCase() !== blockHash)
    throw new QueryInputError("block_not_canonical", `block ${hash} is not on the canonical chain`, {
      argument,
      hash,
      block: String(block.number),
    });
  return block.number;
}
