/** PSM swaps (mints and redemptions) and reserve movements. */

import { PSM_SWAP_COLUMNS as C, PSM_RESERVE_MOVEMENT_COLUMNS as M } from "@kusd/core";
import { getAddress } from "viem";
import type * as schema from "../../../ponder.schema.js";
import { builder } from "../builder.js";
import { entityConnection } from "../entity-field.js";
import { PsmKeyEnum, SwapDirection } from "../enums.js";
import { RangeFilter, rangeWhere } from "../filters.js";
import { address, isoOf } from "../inputs.js";
import { AccountRef, PsmRef } from "../nodes.js";
import { psmReserveMovementSpec, psmSwapSpec } from "../specs/swaps.js";

export { SwapDirection };

type Swap = typeof schema.psmSwap.$inferSelect;
type Movement = typeof schema.psmReserveMovement.$inferSelect;

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
  description: "Deprecated: use where (PsmSwap_filter).",
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

type SwapFilterValue = typeof SwapFilter.$inferInput;

entityConnection(psmSwapSpec, SwapRef, {
  args: (arg) => ({
    filter: arg({
      type: SwapFilter,
      deprecationReason: "Use where: { psmKey_in, direction, user, kusdAmount_gte, … }",
    }),
  }),
  where: ({ filter }) => {
    const f = (filter ?? {}) as SwapFilterValue;
    return {
      psmKey_in: f.psm?.length ? f.psm : undefined,
      direction: f.direction,
      user: f.user,
      txHash: f.txHash,
      kusdAmount_gte: f.minKusd,
      kusdAmount_lte: f.maxKusd,
      ...rangeWhere(f.range),
    };
  },
});

const MovementRef = builder.objectRef<Movement>("PsmReserveMovement").implement({
  description: "USDC entering or leaving a PSM other than by a swap: topUp, skim, flashLoan or unexplained.",
  fields: (t) => ({
    id: t.exposeString("id"),
    psm: t.field({ type: PsmRef, resolve: (m) => ({ key: m.psmKey, address: m.psm }) }),
    kind: t.exposeString("kind", { description: M.kind }),
    direction: t.exposeString("direction", { description: M.direction }),
    counterparty: t.string({ description: M.counterparty, resolve: (m) => getAddress(m.counterparty) }),
    amount: t.field({ type: "BigInt", description: M.amount, resolve: (m) => m.amount }),
    txHash: t.exposeString("txHash"),
    blockNumber: t.field({ type: "BigInt", resolve: (m) => m.blockNumber }),
    timestamp: t.string({ description: "ISO 8601", resolve: (m) => isoOf(m.timestamp) }),
  }),
});

const MovementFilter = builder.inputType("PsmReserveMovementFilter", {
  description: "Deprecated: use where (PsmReserveMovement_filter).",
  fields: (t) => ({
    psm: t.field({ type: [PsmKeyEnum] }),
    kind: t.string({ description: "topUp | skim | flashLoan | unexplained" }),
    direction: t.string({ description: "in | out" }),
    range: t.field({ type: RangeFilter }),
    minAmount: t.field({ type: "BigInt", description: "USDC, 6 decimals" }),
  }),
});

type MovementFilterValue = typeof MovementFilter.$inferInput;

entityConnection(psmReserveMovementSpec, MovementRef, {
  args: (arg) => ({
    filter: arg({
      type: MovementFilter,
      deprecationReason: "Use where: { psmKey_in, kind, direction, amount_gte, … }",
    }),
  }),
  where: ({ filter }) => {
    const f = (filter ?? {}) as MovementFilterValue;
    return {
      psmKey_in: f.psm?.length ? f.psm : undefined,
      kind: f.kind,
      direction: f.direction,
      amount_gte: f.minAmount,
      ...rangeWhere(f.range),
    };
  },
});

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
