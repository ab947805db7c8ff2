/**
 * Block numbers from time on a chain with a fixed block time. Base has made one block every
 * 2 seconds since its genesis block 0 at unix time 1,686,789,347, so a moment maps to a block
 * exactly: the timelock handover executed 2026-08-06T17:00:07Z is block 49,623,130, as the
 * operator's registry says.
 */
export const BASE_GENESIS_TIMESTAMP = 1_686_789_347;
export const BASE_BLOCK_SECONDS = 2;

/** The block produced at or just before unix time `t`. */
export function baseBlockAt(t: number, genesis = BASE_GENESIS_TIMESTAMP, blockTime = BASE_BLOCK_SECONDS): number {
  return Math.floor((t - genesis) / blockTime);
}

/** The first block of a UTC day ("YYYY-MM-DD"): a start block that no deployment on that day precedes. */
export function blockOnDate(day: string, genesis: number, blockTime: number): number {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(Date.parse(`${day}T00:00:00Z`)))
    throw new Error(`not a UTC day: ${day}`);
  return Math.max(0, Math.ceil((Date.parse(`${day}T00:00:00Z`) / 1000 - genesis) / blockTime));
}

export const baseBlockOnDate = (day: string): number => blockOnDate(day, BASE_GENESIS_TIMESTAMP, BASE_BLOCK_SECONDS);
