/**
 * The Graph's time travel and metadata: the `Block_height` input every entity connection takes
 * (`block: { number }` or `{ hash }`), and `_meta { block { number hash timestamp } status }`,
 * the block the answers are as of (the indexed head, or the block asked for) and how far the
 * indexer is behind the chain.
 */
import { CAUGHT_UP_LAG, indexerCaughtUp, type ReportContext, reportBlockHash, reportHead } from "../context.js";
import { ApiError } from "../http/errors.js";
import { builder } from "./builder.js";
import { isoOf } from "./inputs.js";
import { type BlockHeight as BlockHeightValue, resolveBlock } from "./query/block.js";
import { asUserErrors } from "./user-errors.js";

export const BlockHeight = builder.inputRef<BlockHeightValue>("Block_height").implement({
  description:
    "A block to answer as of: its number or its hash (one of them), at or below the indexed head (_meta.block). Event entities answer the rows of blocks up to it.",
  fields: (t) => ({
    number: t.field({ type: "BigInt", description: "Block number" }),
    hash: t.string({ description: "Block hash (0x and 64 hex characters), on the canonical chain" }),
  }),
});

type MetaBlock = { ctx: ReportContext; number: bigint; headTimestamp: number | null };

const MetaBlockRef = builder.objectRef<MetaBlock>("_Block_").implement({
  description: "A block the indexer has indexed.",
  fields: (t) => ({
    number: t.field({ type: "BigInt", resolve: (b) => b.number }),
    hash: t.string({
      nullable: true,
      description: "Read from the chain (null when the read fails)",
      resolve: (b) => reportBlockHash(b.ctx, b.number),
    }),
    timestamp: t.string({
      nullable: true,
      description: "ISO 8601 (null when the chain read it takes fails)",
      resolve: async (b) => {
        if (b.headTimestamp !== null) return isoOf(b.headTimestamp);
        const block = await b.ctx.base.getBlock({ blockNumber: b.number }).catch(() => null);
        return block ? isoOf(block.timestamp) : null;
      },
    }),
  }),
});

const SYNC_STATUS = ["synced", "syncing", "unknown"] as const;
const SyncStatus = builder.enumType("SyncStatus", {
  description: `synced: the indexed head is within ${CAUGHT_UP_LAG} blocks of the chain's head; syncing: further behind; unknown: the chain's head could not be read`,
  values: SYNC_STATUS,
});

const MetaRef = builder.objectRef<MetaBlock>("_Meta_").implement({
  description: "What the answers are as of.",
  fields: (t) => ({
    block: t.field({ type: MetaBlockRef, resolve: (m) => m }),
    status: t.field({
      type: SyncStatus,
      resolve: async (m) => {
        const { caughtUp, chain } = await indexerCaughtUp(m.ctx);
        return chain === null ? "unknown" : caughtUp ? "synced" : "syncing";
      },
    }),
    indexedHead: t.field({
      type: "BigInt",
      description: "The newest indexed block",
      resolve: async (m) => (await head(m.ctx)).blockNumber,
    }),
  }),
});

async function head(ctx: ReportContext) {
  const h = await reportHead(ctx);
  if (!h) throw new ApiError("not_indexed_yet", "the indexer has not indexed a block yet");
  return h;
}

builder.queryField("_meta", (t) =>
  t.field({
    type: MetaRef,
    description: "The block answers are as of (the indexed head, or `block`), and the indexer's status.",
    args: { block: t.arg({ type: BlockHeight }) },
    resolve: (_root, args, { reports }) =>
      asUserErrors(async () => {
        const h = await head(reports);
        const asked = await resolveBlock(reports, args.block);
        const number = asked ?? h.blockNumber;
        return { ctx: reports, number, headTimestamp: number === h.blockNumber ? h.timestamp : null };
      }),
  }),
);
