/** The venue readings statements used (the venue has no history of its own). */
import { and, desc, eq, lte } from "drizzle-orm";
import { MAX_INT8 } from "./checks.js";
import { type Db, OperatorStoreError, type Run } from "./operation.js";
import type { NewVenueReading, StoredVenueReading } from "./records.js";
import type { OperatorTables } from "./tables.js";

export interface VenueReadingRepository {
  record(row: NewVenueReading): Promise<void>;
  /** The newest readings of `account` on `chainId` used at or before `blockNumber`, newest first (at most `limit`). */
  atOrBefore(chainId: number, account: string, blockNumber: bigint, limit?: number): Promise<StoredVenueReading[]>;
}

export function venueReadingRepository(db: Db, { venueReading: t }: OperatorTables, run: Run): VenueReadingRepository {
  return {
    record: (row) =>
      run("venueReadings.record", async () => {
        if (typeof row.blockNumber !== "bigint" || row.blockNumber < 0n || row.blockNumber > MAX_INT8)
          throw new OperatorStoreError("blockNumber must be a non-negative int8 bigint", {});
        if (row.state !== null) JSON.parse(row.state); // refuse what could not be read back
        await db.insert(t).values({
          ...row,
          account: row.account.toLowerCase(),
          blockHash: row.blockHash?.toLowerCase() ?? null,
          statementHash: row.statementHash?.toLowerCase() ?? null,
        });
      }),
    atOrBefore: (chainId, account, blockNumber, limit = 8) =>
      run("venueReadings.atOrBefore", async () => {
        const rows = await db
          .select()
          .from(t)
          .where(and(eq(t.chainId, chainId), eq(t.account, account.toLowerCase()), lte(t.blockNumber, blockNumber)))
          .orderBy(desc(t.blockNumber), desc(t.id))
          .limit(Math.min(64, Math.max(1, limit)));
        return rows as StoredVenueReading[];
      }),
  };
}
