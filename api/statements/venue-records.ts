/**
 * The venue readings signed statements used, kept in the operator store: a statement records the
 * reading its report reconciled the mirror against, and a report at a past block reads the nearest
 * one back (ReportContext.venueRecords), so every figure a statement signs is reproducible at its
 * `report_block` from what we publish.
 */
import type { NetworkConfig, RecordedVenueReading } from "@kusd/core";
import type { VenueRecords } from "../context.js";
import type { CacheSizes } from "../io/cache-sizes.js";
import { coalesce, memo } from "../io/memo.js";
import type { VenueNow } from "../io/venue-now.js";
import type { OperatorStore } from "../store/operator-store.js";

/**
 * `blockHash(n)` is the chain's hash of block n now: a reading recorded on a block that is no longer
 * the chain's (a reorg, or a devnet re-created over the same store) is passed over.
 *
 * Every report asks this, at the head too (is there a reading recorded at this very block?): one
 * store query per request held /api/por to a quarter of the throughput of a constant answer. An
 * answer is kept for `freshMs` (the reports' `headFreshMs`: what a report reads per request rather
 * than per block is read once in that time), and dropped at once by `forget` when this process
 * records a reading. 0 keeps nothing: only concurrent asks share a query.
 */
export function venueRecords(
  store: Promise<OperatorStore>,
  network: NetworkConfig,
  siteUrl: string,
  blockHash: (blockNumber: bigint) => Promise<string | null>,
  freshMs = 0,
  max = 256,
): VenueRecords & { sizes: CacheSizes } {
  const account = network.reporting.venue.account;
  const remember = () => {
    if (freshMs === 0) return { read: coalesce<RecordedVenueReading | null>(), sizes: () => [] };
    const m = memo<RecordedVenueReading | null>({ max, ttlMs: freshMs });
    return { read: m, sizes: () => [m.sizeAs("venue_readings")] };
  };
  let kept = remember();
  return {
    sizes: () => kept.sizes(),
    atOrBefore(blockNumber, known) {
      return kept.read(`${blockNumber}:${known?.hash ?? ""}:${known?.exact ? "exact" : "nearest"}`, () =>
        read(blockNumber, known),
      );
    },
    forget() {
      kept = remember();
    },
  };

  async function read(
    blockNumber: bigint,
    known?: { hash: string | null; exact?: boolean },
  ): Promise<RecordedVenueReading | null> {
    const rows = (await (await store).venueReadings.atOrBefore(network.chains.base.id, account, blockNumber)).filter(
      (r) => !known?.exact || r.blockNumber === blockNumber,
    );
    let row: (typeof rows)[number] | undefined;
    for (const candidate of rows) {
      const canonical =
        known?.hash && candidate.blockNumber === blockNumber ? known.hash : await blockHash(candidate.blockNumber);
      if (canonical !== null && candidate.blockHash !== null && canonical.toLowerCase() !== candidate.blockHash)
        continue;
      row = candidate;
      break;
    }
    if (!row) return null;
    return {
      blockNumber: Number(row.blockNumber),
      statement: row.statementHash,
      statementUrl: row.statementHash ? `${siteUrl}/api/por/signed/${row.statementHash}` : null,
      state: row.state === null ? null : (JSON.parse(row.state) as RecordedVenueReading["state"]),
      reason: row.reason,
      readAtMs: row.readAtMs,
    };
  }
}

/** Keeps the live reading a statement at `blockNumber` used; a failed one too, so its block is not reconciled against an older one. */
export async function recordVenueReading(
  store: OperatorStore,
  network: NetworkConfig,
  r: { blockNumber: bigint; blockHash: string | null; venueNow: VenueNow; statementHash: string },
) {
  if (!network.reporting.venue.url) return;
  await store.venueReadings.record({
    chainId: network.chains.base.id,
    blockNumber: r.blockNumber,
    blockHash: r.blockHash,
    account: network.reporting.venue.account,
    venueUrl: network.reporting.venue.url,
    state: r.venueNow.state === null ? null : JSON.stringify(r.venueNow.state),
    reason: r.venueNow.reason,
    readAtMs: r.venueNow.readAtMs,
    statementHash: r.statementHash,
  });
}
