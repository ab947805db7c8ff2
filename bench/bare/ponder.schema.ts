import { onchainTable } from "ponder";

// Ponder needs a schema; the bare app never writes to it.
export const untouched = onchainTable("untouched", (t) => ({ id: t.text().primaryKey() }));
