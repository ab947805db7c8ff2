/**
 * Every row of an entity query, in batches read by keyset (each batch starts after the last row
 * of the one before): memory stays one batch whatever the row count, and no statement holds a
 * cursor or a transaction open while a slow client reads.
 */
import { and } from "drizzle-orm";
import type { ReadDb } from "../../io/indexed-reads.js";
import type { Row } from "./entity.js";
import { beyond, orderTerms, type Position } from "./order.js";
import type { EntityQuery } from "./page.js";

export const BATCH_ROWS = 1_000;

export async function* rowBatches(
  db: ReadDb,
  q: EntityQuery,
  o: { limit?: number; batch?: number } = {},
): AsyncGenerator<Row[]> {
  const { source: src, ordering } = q;
  const batch = o.batch ?? BATCH_ROWS;
  let left = o.limit ?? Number.POSITIVE_INFINITY;
  let after: Position | null = null;
  while (left > 0) {
    const size = Math.min(batch, left);
    const rows: Row[] = await db
      .select()
      .from(src.from)
      .where(and(src.where, q.where, after ? beyond(ordering, src, after, "after") : undefined))
      .orderBy(...orderTerms(ordering, src))
      .limit(size);
    if (rows.length > 0) yield rows;
    if (rows.length < size) return;
    left -= rows.length;
    const last: Row = rows.at(-1)!;
    after = ordering.keys.map((k): Position[number] => (last[k.name] ?? null) as Position[number]);
  }
}
