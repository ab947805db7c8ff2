/**
 * Live feeds besides violations (violations.ts): new signed statements and new redemptions,
 * polled from the store and the indexed tables and pushed as server-sent events.
 */
import { and, asc, eq, gt, gte } from "drizzle-orm";
import * as schema from "../../ponder.schema.js";
import { indexedHead } from "../io/indexed-reads.js";
import { builder } from "./builder.js";
import { SwapRef } from "./entities/swaps.js";
import { SignedStatementRef } from "./reports.js";
import { pause } from "./violation-stream.js";

builder.subscriptionField("signedStatements", (t) =>
  t.field({
    type: SignedStatementRef,
    description: "Each signed statement as it is stored (hourly).",
    args: { pollMs: t.arg.int({ defaultValue: 5_000 }) },
    subscribe: async function* (_root, args, ctx) {
      const store = await ctx.services?.statements?.store;
      if (!store) return;
      let last = (await store.statements.latest())?.attestationHash ?? null;
      while (!ctx.signal?.aborted) {
        await pause(Math.max(1_000, args.pollMs ?? 5_000), ctx.signal);
        const latest = await store.statements.latest();
        if (latest && latest.attestationHash !== last) {
          last = latest.attestationHash;
          yield latest;
        }
      }
    },
    resolve: (s) => s,
  }),
);

builder.subscriptionField("redemptions", (t) =>
  t.field({
    type: SwapRef,
    description: "Each PSM redemption as it is indexed, optionally only from a kUSD amount up (18 decimals).",
    args: { minKusd: t.arg({ type: "BigInt" }) },
    subscribe: async function* (_root, args, { reports, signal }) {
      const s = schema.psmSwap;
      const from = (await indexedHead(reports.db, "base"))?.blockNumber ?? 0n;
      let cursor: { block: bigint; logIndex: number } = { block: from, logIndex: Number.MAX_SAFE_INTEGER };
      while (!signal?.aborted) {
        const rows = await reports.db
          .select()
          .from(s)
          .where(
            and(
              eq(s.direction, "redeem"),
              gt(s.blockNumber, cursor.block - 1n),
              args.minKusd != null ? gte(s.kusdAmount, args.minKusd) : undefined,
            ),
          )
          .orderBy(asc(s.blockNumber), asc(s.logIndex));
        for (const r of rows) {
          if (r.blockNumber < cursor.block || (r.blockNumber === cursor.block && r.logIndex <= cursor.logIndex))
            continue;
          cursor = { block: r.blockNumber, logIndex: r.logIndex };
          yield r;
        }
        await pause(1_000, signal);
      }
    },
    resolve: (r) => r,
  }),
);
