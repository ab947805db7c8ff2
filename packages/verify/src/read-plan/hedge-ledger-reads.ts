/**
 * The venue reads behind /api/hedge-ledger, made the same way by the service and a reader: the
 * account's funding payments and fills over the window, and what the venue keeps of the fills.
 */
import { basePins, type LedgerRecords, type NetworkConfig, type Pins } from "@kusd/core";
import type { Address } from "viem";
import type { VenueReader } from "../venue/venue-reader.js";

export async function readLedgerRecords(
  venue: VenueReader,
  account: Address,
  sinceMs: number,
  untilMs: number,
): Promise<LedgerRecords> {
  const [funding, { fills, retention }] = await Promise.all([
    venue.userFunding(account, sinceMs, untilMs),
    venue.userFills(account, sinceMs, untilMs),
  ]);
  const pages = (type: string) => venue.requests.find((r) => r.request.type === type)?.pages ?? 0;
  return {
    funding,
    fills,
    retention,
    pages: { userFunding: pages("userFunding"), userFills: pages("userFillsByTime") },
  };
}

/** The ledger's pins: no chain read, the venue's requests with their exact windows. */
export function ledgerPins(network: NetworkConfig, venue: VenueReader | null, failed: string | null): Pins {
  const v = network.reporting.venue;
  return basePins({
    report: "hedge-ledger",
    network: { chainId: network.chains.base.id, documentSha256: network.documentSha256 },
    block: null,
    venue: { url: v.url, account: v.account, requests: venue?.requests ?? [], failed },
  });
}
