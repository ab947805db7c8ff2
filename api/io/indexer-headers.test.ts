import { afterEach, describe, expect, it } from "vitest";
import { type AnnouncedBlock, INDEXER_BLOCK_EVENT, type IndexerHeaders, indexerHeaders } from "./indexer-headers.js";

// Ponder's patched realtime sync emits on `process`, whose typed emit knows only Node's own events.
const processEvents: NodeJS.EventEmitter = process;
const hash = (n: number, branch = "a") => `0x${branch.repeat(2)}${n.toString(16).padStart(62, "0")}` as const;
const announce = (number: number, branch = "a", chainId = 8453) =>
  processEvents.emit(INDEXER_BLOCK_EVENT, {
    chainId,
    number: `0x${number.toString(16)}`,
    hash: hash(number, branch),
    timestamp: `0x${(1_700_000_000 + 2 * number).toString(16)}`,
  } satisfies AnnouncedBlock);

describe("indexerHeaders", () => {
  let headers: IndexerHeaders | null = null;
  afterEach(() => headers?.close());

  it("holds each announced block's hash and timestamp", () => {
    headers = indexerHeaders(8453);
    announce(10);
    announce(11);
    expect(headers.at(11n)).toEqual({ hash: hash(11), timestamp: 1_700_000_022 });
    expect(headers.at(10n)?.hash).toBe(hash(10));
    expect(headers.at(12n)).toBeNull();
  });

  it("ignores another chain's blocks", () => {
    headers = indexerHeaders(8453);
    announce(10, "a", 1);
    expect(headers.at(10n)).toBeNull();
  });

  it("forgets the branch above a block announced again (a reorg)", () => {
    headers = indexerHeaders(8453);
    for (const n of [10, 11, 12, 13]) announce(n);
    announce(11, "b");
    expect(headers.at(10n)?.hash).toBe(hash(10));
    expect(headers.at(11n)?.hash).toBe(hash(11, "b"));
    expect(headers.at(12n)).toBeNull();
    expect(headers.at(13n)).toBeNull();
  });

  it("keeps only the newest blocks", () => {
    headers = indexerHeaders(8453, 3);
    for (const n of [1, 2, 3, 4, 5]) announce(n);
    expect([1n, 2n, 3n, 4n, 5n].map((n) => headers?.at(n) !== null)).toEqual([false, false, true, true, true]);
  });

  it("hears nothing once closed", () => {
    headers = indexerHeaders(8453);
    headers.close();
    announce(10);
    expect(headers.at(10n)).toBeNull();
  });
});
