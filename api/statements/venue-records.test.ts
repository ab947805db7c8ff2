import { describe, expect, it } from "vitest";
import type { NetworkConfig } from "../../core/network/types.js";
import type { OperatorStore, StoredVenueReading } from "../store/operator-store.js";
import { venueRecords } from "./venue-records.js";

const network = {
  chains: { base: { id: 8453 } },
  reporting: { venue: { account: "0x00000000000000000000000000000000000000aa", url: "http://venue/info" } },
} as unknown as NetworkConfig;
const reading = (blockNumber: bigint, blockHash: string, equityUsd: number): StoredVenueReading => ({
  id: Number(blockNumber),
  chainId: 8453,
  blockNumber,
  blockHash,
  account: "0x00000000000000000000000000000000000000aa",
  venueUrl: "http://venue/info",
  state: JSON.stringify({ equityUsd, time: 1_790_000_000_000 }),
  reason: null,
  readAtMs: 1_790_000_000_100,
  statementHash: `0x${"ab".repeat(32)}`,
  createdAt: new Date(0),
});

describe("venueRecords", () => {
  it("returns the newest reading at or before the block whose block is still the chain's, with where it came from", async () => {
    const rows = [reading(120n, "0xorphan", 1), reading(110n, "0xcanonical", 2)];
    const store = Promise.resolve({ venueReadings: { atOrBefore: async () => rows } } as unknown as OperatorStore);
    const chain: Record<string, string> = { "120": "0xother", "110": "0xcanonical" };
    const records = venueRecords(store, network, "http://site", async (n) => chain[String(n)] ?? null);
    expect(await records.atOrBefore(125n)).toEqual({
      blockNumber: 110,
      statement: `0x${"ab".repeat(32)}`,
      statementUrl: `http://site/api/por/signed/0x${"ab".repeat(32)}`,
      state: { equityUsd: 2, time: 1_790_000_000_000 },
      reason: null,
      readAtMs: 1_790_000_000_100,
    });
  });
  it("is null when no reading is on the chain's blocks", async () => {
    const store = Promise.resolve({
      venueReadings: { atOrBefore: async () => [reading(120n, "0xorphan", 1)] },
    } as unknown as OperatorStore);
    expect(await venueRecords(store, network, "http://site", async () => "0xother").atOrBefore(125n)).toBeNull();
  });
});
