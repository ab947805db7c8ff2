/** GraphQL for registry violations: a listing and a live subscription (server-sent events or WebSocket). */

import { eq } from "drizzle-orm";
import { getAddress } from "viem";
import { tokenDecimals } from "../../core/reserves/units.js";
import * as schema from "../../ponder.schema.js";
import type { IndexedViolation } from "../io/indexed-reads.js";
import { builder } from "./builder.js";
import { connectionOf, type Keyset, keysetPage, OrderDirection } from "./connection.js";
import { RangeFilter, rangeConditions } from "./filters.js";
import { address } from "./inputs.js";
import { FROM_BLOCK, liveEventRef } from "./live/events.js";
import { violationSource } from "./live/sources.js";
import { liveStream } from "./live/stream.js";

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

const violationKey: Keyset<IndexedViolation> = {
  columns: [schema.registryViolation.blockNumber, schema.registryViolation.logIndex],
  types: ["bigint", "int"],
  of: (r) => [r.blockNumber, r.logIndex],
};

const ViolationEventRef = liveEventRef<IndexedViolation>(
  "ViolationEvent",
  "violation",
  ViolationRef,
  "A registry violation the indexer recorded (DETECTED) or a reorg removed (RETRACTED).",
);

const ViolationFilter = builder.inputType("ViolationFilter", {
  fields: (t) => ({
    from: t.string(),
    to: t.string(),
    tokenSymbol: t.string(),
    registryVersion: t.int(),
    range: t.field({ type: RangeFilter }),
  }),
});

builder.queryField("violations", (t) =>
  t.field({
    type: connectionOf<IndexedViolation>("Violation", ViolationRef),
    description: "Registry violations in chain order (block, log index).",
    args: {
      filter: t.arg({ type: ViolationFilter }),
      orderDirection: t.arg({ type: OrderDirection, defaultValue: "ASC" }),
      first: t.arg.int(),
      after: t.arg.string(),
    },
    resolve: (_root, args, { reports }) => {
      const v = schema.registryViolation;
      const f = args.filter ?? {};
      const filters = () => {
        const [from, to] = [address(f.from, "filter.from"), address(f.to, "filter.to")];
        return [
          from ? eq(v.from, from) : undefined,
          to ? eq(v.to, to) : undefined,
          f.tokenSymbol ? eq(v.tokenSymbol, f.tokenSymbol) : undefined,
          f.registryVersion != null ? eq(v.registryVersion, f.registryVersion) : undefined,
          ...rangeConditions(f.range, v.blockNumber, v.timestamp),
        ];
      };
      return keysetPage(args, violationKey, filters, (q) =>
        reports.db
          .select()
          .from(v)
          .where(q.where)
          .orderBy(...q.orderBy)
          .limit(q.limit),
      );
    },
  }),
);

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
