/**
 * The signed-statement feed: each new statement as the service stores it, polled from the
 * operator store. The feeds of indexed events, which a reorg can retract, are in live/.
 */
import { builder } from "./builder.js";
import { abortable, pause } from "./live/abortable.js";
import { SignedStatementRef } from "./reports.js";

builder.subscriptionField("signedStatements", (t) =>
  t.field({
    type: SignedStatementRef,
    description: "Each signed statement as it is stored (hourly).",
    args: { pollMs: t.arg.int({ defaultValue: 5_000 }) },
    subscribe: (_root, args, ctx) =>
      abortable(async function* (signal) {
        const store = await ctx.services?.statements?.store;
        if (!store) return;
        let last = (await store.statements.latest())?.attestationHash ?? null;
        while (!signal.aborted) {
          await pause(Math.max(1_000, args.pollMs ?? 5_000), signal);
          if (signal.aborted) return;
          const latest = await store.statements.latest();
          if (latest && latest.attestationHash !== last) {
            last = latest.attestationHash;
            yield latest;
          }
        }
      }, ctx.signal),
    resolve: (s) => s,
  }),
);
