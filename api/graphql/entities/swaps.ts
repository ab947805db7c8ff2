/** PSM swaps (mints and redemptions) and reserve movements. */
import { eq, gte, inArray, lte } from "drizzle-orm";
import { getAddress } from "viem";
import { PSM_SWAP_COLUMNS as C } from "../../../core/indexed/columns.js";
import * as schema from "../../../ponder.schema.js";
import { builder } from "../builder.js";
import { connectionOf, type Keyset, keysetPage, OrderDirection } from "../connection.js";
import { RangeFilter, rangeConditions } from "../filters.js";
import { address, isoOf } from "../inputs.js";
import { AccountRef, PsmKeyEnum, PsmRef } from "../nodes.js";

type Swap = typeof schema.psmSwap.$inferSelect;
type Movement = typeof schema.psmReserveMovement.$inferSelect;

const swapKey: Keyset<Swap> = {
  columns: [schema.psmSwap.blockNumber, schema.psmSwap.logIndex],
  types: ["bigint", "int"],
  of: (r) => [r.blockNumber, r.logIndex],
};
const movementKey: Keyset<Movement> = {
  columns: [schema.psmReserveMovement.blockNumber, schema.psmReserveMovement.id],
  types: ["bigint", "text"],
  of: (r) => [r.blockNumber, r.id],
};

export const SwapDirection = builder.enumType("SwapDirection", { values: ["mint", "redeem"] as const });

export const SwapRef = builder.objectRef<Swap>("PsmSwap").implement({
  description: "One PSM Swap event: a mint (USDC → kUSD) or a redemption (kUSD → USDC).",
  fields: (t) => ({
    id: t.exposeString("id"),
    psm: t.field({ type: PsmRef, resolve: (s) => ({ key: s.psmKey, address: s.psm }) }),
    direction: t.field({ type: SwapDirection, description: C.direction, resolve: (s) => s.direction }),
    user: t.field({ type: AccountRef, description: C.user, resolve: (s) => ({ address: s.user }) }),
    usdcAmount: t.field({ type: "BigInt", description: C.usdcAmount, resolve: (s) => s.usdcAmount }),
    kusdAmount: t.field({ type: "BigInt", description: C.kusdAmount, resolve: (s) => s.kusdAmount }),
    fee: t.field({ type: "BigInt", description: C.fee, resolve: (s) => s.fee }),
    feeBps: t.exposeInt("feeBps", { description: C.feeBps }),
    kusdBurned: t.field({ type: "BigInt", description: C.kusdBurned, resolve: (s) => s.kusdBurned }),
    txHash: t.exposeString("txHash"),
    blockNumber: t.field({ type: "BigInt", resolve: (s) => s.blockNumber }),
    logIndex: t.exposeInt("logIndex"),
    timestamp: t.string({ description: "ISO 8601", resolve: (s) => isoOf(s.timestamp) }),
  }),
});

const SwapFilter = builder.inputType("PsmSwapFilter", {
  fields: (t) => ({
    psm: t.field({ type: [PsmKeyEnum] }),
    direction: t.field({ type: SwapDirection }),
    user: t.string({ description: "Swapper / redeemer address" }),
    txHash: t.string(),
    range: t.field({ type: RangeFilter }),
    minKusd: t.field({ type: "BigInt", description: "kUSD amount at least (18 decimals)" }),
    maxKusd: t.field({ type: "BigInt", description: "kUSD amount at most (18 decimals)" }),
  }),
});

builder.queryField("psmSwaps", (t) =>
  t.field({
    type: connectionOf<Swap>("PsmSwap", SwapRef),
    description: "PSM swaps in chain order (block, log index).",
    args: {
      filter: t.arg({ type: SwapFilter }),
      orderDirection: t.arg({ type: OrderDirection, defaultValue: "ASC" }),
      first: t.arg.int(),
      after: t.arg.string(),
    },
    resolve: (_root, args, { reports }) => {
      const s = schema.psmSwap;
      const f = args.filter ?? {};
      const filters = () => {
        const user = address(f.user, "filter.user");
        return [
          f.psm?.length ? inArray(s.psmKey, f.psm) : undefined,
          f.direction ? eq(s.direction, f.direction) : undefined,
          user ? eq(s.user, user) : undefined,
          f.txHash ? eq(s.txHash, f.txHash.toLowerCase() as `0x${string}`) : undefined,
          f.minKusd != null ? gte(s.kusdAmount, f.minKusd) : undefined,
          f.maxKusd != null ? lte(s.kusdAmount, f.maxKusd) : undefined,
          ...rangeConditions(f.range, s.blockNumber, s.timestamp),
        ];
      };
      return keysetPage(args, swapKey, filters, (q) =>
        reports.db
          .select()
          .from(s)
          .where(q.where)
          .orderBy(...q.orderBy)
          .limit(q.limit),
      );
    },
  }),
);

const MovementRef = builder.objectRef<Movement>("PsmReserveMovement").implement({
  description: "USDC entering or leaving a PSM other than by a swap: topUp, skim, flashLoan or unexplained.",
  fields: (t) => ({
    id: t.exposeString("id"),
    psm: t.field({ type: PsmRef, resolve: (m) => ({ key: m.psmKey, address: m.psm }) }),
    kind: t.exposeString("kind"),
    direction: t.exposeString("direction"),
    counterparty: t.string({ resolve: (m) => getAddress(m.counterparty) }),
    amount: t.field({ type: "BigInt", description: "USDC, 6 decimals", resolve: (m) => m.amount }),
    txHash: t.exposeString("txHash"),
    blockNumber: t.field({ type: "BigInt", resolve: (m) => m.blockNumber }),
    timestamp: t.string({ resolve: (m) => isoOf(m.timestamp) }),
  }),
});

const MovementFilter = builder.inputType("PsmReserveMovementFilter", {
  fields: (t) => ({
    psm: t.field({ type: [PsmKeyEnum] }),
    kind: t.string({ description: "topUp | skim | flashLoan | unexplained" }),
    direction: t.string({ description: "in | out" }),
    range: t.field({ type: RangeFilter }),
    minAmount: t.field({ type: "BigInt", description: "USDC, 6 decimals" }),
  }),
});

builder.queryField("psmReserveMovements", (t) =>
  t.field({
    type: connectionOf<Movement>("PsmReserveMovement", MovementRef),
    args: {
      filter: t.arg({ type: MovementFilter }),
      orderDirection: t.arg({ type: OrderDirection, defaultValue: "ASC" }),
      first: t.arg.int(),
      after: t.arg.string(),
    },
    resolve: (_root, args, { reports }) => {
      const m = schema.psmReserveMovement;
      const f = args.filter ?? {};
      const filters = () => [
        f.psm?.length ? inArray(m.psmKey, f.psm) : undefined,
        f.kind ? eq(m.kind, f.kind) : undefined,
        f.direction ? eq(m.direction, f.direction) : undefined,
        f.minAmount != null ? gte(m.amount, f.minAmount) : undefined,
        ...rangeConditions(f.range, m.blockNumber, m.timestamp),
      ];
      return keysetPage(args, movementKey, filters, (q) =>
        reports.db
          .select()
          .from(m)
          .where(q.where)
          .orderBy(...q.orderBy)
          .limit(q.limit),
      );
    },
  }),
);

builder.queryField("account", (t) =>
  t.field({
    type: AccountRef,
    args: { address: t.arg.string({ required: true }) },
    resolve: (_r, args) => ({ address: address(args.address, "address")! }),
  }),
);

builder.queryField("psms", (t) =>
  t.field({
    type: [PsmRef],
    resolve: (_r, _a, { reports }) =>
      Object.entries(reports.network.psms).map(([key, d]) => ({ key, address: d.address.toLowerCase() })),
  }),
);
