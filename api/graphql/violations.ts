/** GraphQL for registry violations: a listing and a live subscription (server-sent events). */
import { getAddress } from "viem";
import { indexedHead, violationsAfter, type IndexedViolation } from "../indexed/reads.js";
import { tokenDecimals } from "../reserves/units.js";
import { builder } from "./builder.js";
import { violationStream, type ViolationEvent } from "./violation-stream.js";

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
    timestamp: t.string({ description: "ISO 8601", resolve: (v) => new Date(Number(v.timestamp) * 1000).toISOString() }),
    registryVersion: t.exposeInt("registryVersion"),
  }),
});

const ViolationEventKind = builder.enumType("ViolationEventKind", { values: ["DETECTED", "RETRACTED"] as const });

const ViolationEventRef = builder.objectRef<ViolationEvent>("ViolationEvent").implement({
  fields: (t) => ({
    kind: t.field({ type: ViolationEventKind, resolve: (e) => e.kind }),
    violation: t.field({ type: ViolationRef, resolve: (e) => e.violation }),
  }),
});

builder.queryField("violations", (t) =>
  t.field({
    type: [ViolationRef],
    description: "Registry violations in chain order, between two blocks (default: all indexed).",
    args: { fromBlock: t.arg({ type: "BigInt" }), toBlock: t.arg({ type: "BigInt" }), first: t.arg.int({ defaultValue: 100 }) },
    resolve: async (_root, args, { reports }) => {
      const head = await indexedHead(reports.db, "base");
      const first = Math.min(Math.max(args.first ?? 100, 1), 1_000);
      return violationsAfter(reports.db, { after: null, fromBlock: args.fromBlock ?? 0n, toBlock: args.toBlock ?? head?.blockNumber ?? 0n, limit: first });
    },
  }),
);

builder.subscriptionField("violations", (t) =>
  t.field({
    type: ViolationEventRef,
    description: "New violations as the indexer records them (DETECTED), and ones a reorg removed (RETRACTED). From the current head unless fromBlock is given.",
    args: { fromBlock: t.arg({ type: "BigInt" }) },
    subscribe: (_root, args, { reports, signal }) => violationStream(reports.db, { fromBlock: args.fromBlock ?? undefined, signal }),
    resolve: (event) => event,
  }),
);
