/**
 * The one shape of every live subscription's payload: `{ kind, <item> }`, where kind is
 * DETECTED or RETRACTED and the item is the entity as the queries return it.
 */
import type { ObjectRef } from "@pothos/core";
import { builder } from "../builder.js";
import type { LiveEvent } from "./stream.js";

export const LiveEventKind = builder.enumType("LiveEventKind", {
  description: "What a live subscription says of its item.",
  values: {
    DETECTED: { description: "The indexer recorded the item (it may still be retracted within the reorg window)." },
    RETRACTED: {
      description:
        "A chain reorganisation removed the item: it was DETECTED on this subscription, or indexed within the reorg window (64 blocks) before it started.",
    },
  } as const,
});

/** The `fromBlock` argument every live subscription takes. */
export const FROM_BLOCK =
  "Replay from this block (inclusive). Unset: items indexed from now on (and RETRACTED for one indexed in the 64 blocks before, if a reorg removes it).";

type Types = typeof builder.$inferSchemaTypes;

/** `{ kind: LiveEventKind!, <field>: <item>! }` named `name`. */
export function liveEventRef<T>(name: string, field: string, item: ObjectRef<Types, T>, description: string) {
  return builder.objectRef<LiveEvent<T>>(name).implement({
    description,
    fields: (t) => ({
      kind: t.field({ type: LiveEventKind, resolve: (e) => e.kind }),
      [field]: t.expose("item", { type: item }),
    }),
  });
}
