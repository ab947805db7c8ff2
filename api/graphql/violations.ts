/** GraphQL for registry violations: a listing and a live subscription (server-sent events or WebSocket). */

import { tokenDecimals } from "@kusd/core";
import { getAddress } from "viem";
import type { IndexedViolation } from "../io/indexed-reads.js";
import { builder } from "./builder.js";
import { entityConnection } from "./entity-field.js";
import { RangeFilter, rangeWhere } from "./filters.js";
import { FROM_BLOCK, liveEventRef } from "./live/events.js";
import { violationSource } from "./live/sources.js";
import { liveStream } from "./live/stream.js";
import { violationSpec } from "./specs/transfers.js";

export const ViolationRef = builder.objectRef<IndexedViolation>("Violation").implement({
  description: "A transfer out of a registry-listed account that no allowed pattern explains (spec 2.6 rule 2).",
  fields: (t) => ({
    id: t.exposeString("id"),
    token: t.string({ resolve: (v) => getAddress(v.token) }),
    tokenSymbol: t.exposeString("tokenSymbol"),
    amount: t.field({ type: "BigInt", description: "Raw token units; see decimals.", resolve: (v) => v.amount }),
    decimals: t.int({ resolve: (v) => tokenDecimals(v.tokenSymbol) }),
    from: t.string({ resolve: (v) => getAddress(v.from) }),
    to: t.string({ resolve: (v) => getAddress(v.to) }),
    txHash: t.exposeString("txHash"),
    blockNumber: t.field({ type: "BigInt", resolve: (v) => v.blockNumber }),
    logIndex: t.exposeInt("logIndex"),
    timestamp: t.string({
      description: "ISO 8601",
      resolve: (v) => new Date(Number(v.timestamp) * 1000).toISOString(),
    }),
    registryVersion: t.exposeInt("registryVersion"),
  }),
});

const ViolationEventRef = liveEventRef<IndexedViolation>(
  "ViolationEvent",
  "violation",
  ViolationRef,
  "A registry violation the indexer recorded (DETECTED) or a reorg removed (RETRACTED).",
);

const ViolationFilter = builder.inputType("ViolationFilter", {
  description: "Deprecated: use where (Violation_filter).",
  fields: (t) => ({
    from: t.string(),
    to: t.string(),
    tokenSymbol: t.string(),
    registryVersion: t.int(),
    range: t.field({ type: RangeFilter }),
  }),
});

type ViolationFilterValue = typeof ViolationFilter.$inferInput;

entityConnection(violationSpec, ViolationRef, {
  args: (arg) => ({
    filter: arg({
      type: ViolationFilter,
      deprecationReason: "Use where: { from, to, tokenSymbol, registryVersion, blockNumber_gte, … }",
    }),
  }),
  where: ({ filter }) => {
    const f = (filter ?? {}) as ViolationFilterValue;
    return {
      from: f.from,
      to: f.to,
      tokenSymbol: f.tokenSymbol || undefined,
      registryVersion: f.registryVersion,
      ...rangeWhere(f.range),
    };
  },
});

builder.subscriptionField("violations", (t) =>
  t.field({
    type: ViolationEventRef,
    description:
      "New violations as the indexer records them (DETECTED), and ones a reorg removed (RETRACTED). From the current head unless fromBlock is given.",
    args: { fromBlock: t.arg({ type: "BigInt", description: FROM_BLOCK }) },
    subscribe: (_root, args, { reports, signal }) =>
      liveStream(violationSource(reports.db), { fromBlock: args.fromBlock ?? undefined, signal }),
    resolve: (event) => event,
  }),
);
