import type { NetworkConfig } from "@kusd/core";
import { describe, expect, it } from "vitest";
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

describe("venueRecords kept for freshMs", () => {
  const counting = (rows: StoredVenueReading[]) => {
    const asked = { count: 0 };
    const store = Promise.resolve({
      venueReadings: {
        atOrBefore: async () => {
          asked.count++;
          return rows;
        },
      },
    } as unknown as OperatorStore);
    return { store, asked };
  };

  it("asks the store once per block and hash while fresh, and again after forget", async () => {
    const rows: StoredVenueReading[] = [];
    const { store, asked } = counting(rows);
    const records = venueRecords(store, network, "http://site", async () => "0xcanonical", 60_000);
    const known = { hash: "0xcanonical" as const, exact: true };
    expect(await records.atOrBefore(130n, known)).toBeNull();
    expect(await records.atOrBefore(130n, known)).toBeNull();
    expect(asked.count).toBe(1);
    // Another block, or the same block with another hash (a reorg), is another question.
    await records.atOrBefore(131n, known);
    await records.atOrBefore(130n, { hash: "0xreorged", exact: true });
    expect(asked.count).toBe(3);
    // A statement recorded a reading at 130: the next report at 130 sees it at once.
    rows.push(reading(130n, "0xcanonical", 7));
    records.forget();
    expect((await records.atOrBefore(130n, known))?.state).toEqual({ equityUsd: 7, time: 1_790_000_000_000 });
    expect(asked.count).toBe(4);
  });

  it("keeps nothing with freshMs 0: concurrent asks share one query, the next asks again", async () => {
    const { store, asked } = counting([]);
    const records = venueRecords(store, network, "http://site", async () => "0xcanonical");
    await Promise.all([records.atOrBefore(130n), records.atOrBefore(130n)]);
    expect(asked.count).toBe(1);
    await records.atOrBefore(130n);
    expect(asked.count).toBe(2);
  });
});
