/** A PSM's announced parameters at a block, from the indexed parameter and pause events. */

import { type PsmParameters, psmParametersAt } from "@kusd/core";
import { and, asc, eq, lte } from "drizzle-orm";
import type { Address } from "viem";
import * as schema from "../../ponder.schema.js";
import type { ReadDb } from "../io/indexed-reads.js";

export async function psmParametersAtBlock(db: ReadDb, psm: Address, block: bigint): Promise<PsmParameters> {
  const p = schema.psmParameterEvent;
  const pe = schema.psmPauseEvent;
  const address = psm.toLowerCase() as Address;
  const [logs, pauses] = await Promise.all([
    db
      .select()
      .from(p)
      .where(and(eq(p.psm, address), lte(p.blockNumber, block)))
      .orderBy(asc(p.blockNumber), asc(p.logIndex)),
    db
      .select({ paused: pe.paused, blockNumber: pe.blockNumber, order: pe.id })
      .from(pe)
      .where(and(eq(pe.psm, address), lte(pe.blockNumber, block))),
  ]);
  return psmParametersAt(logs, pauses, block);
}
