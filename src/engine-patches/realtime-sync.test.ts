/**
 * Ponder's realtime sync (sync-realtime/index.js), fed heads by hand over a chain held in memory:
 *   - realtime-lagging-head (patches/README.md): a head at or below the local one is a lagging
 *     node's view, not a reorg, while a hash we indexed still holds; a different block at our
 *     head's height is a reorg, handled as before.
 *   - realtime-block-announce: each block joining the local chain is announced on the process
 *     (`ponder:block`), which the API takes report block hashes from (api/io/indexer-headers.ts).
 *   - realtime-retry-failed-head: a head whose fetch failed is fetched again when it is announced
 *     (or polled) again, not taken for a duplicate of itself.
 */
import { describe, expect, it } from "vitest";

type Block = {
  hash: `0x${string}`;
  parentHash: `0x${string}`;
  number: `0x${string}`;
  timestamp: `0x${string}`;
  logsBloom: `0x${string}`;
  transactions: never[];
};
type SyncEvent = { type: string; block?: Block; reorgedBlocks?: Block[] };
type RealtimeSync = {
  sync: (block: Block, callback?: (isAccepted: boolean) => void) => AsyncGenerator<SyncEvent>;
  unfinalizedBlocks: Block[];
};
const { createRealtimeSync }: { createRealtimeSync: (args: object) => RealtimeSync } = await import(
  new URL("../../node_modules/ponder/dist/esm/sync-realtime/index.js", import.meta.url).href
);

const hex = (n: number) => `0x${n.toString(16)}` as const;
/** Block `n` of fork `fork` (0 is the chain the indexer follows). */
function block(n: number, fork = 0): Block {
  const hash = (m: number, f: number) => `0x${(f * 1_000_000 + m + 1).toString(16).padStart(64, "0")}` as const;
  return {
    hash: hash(n, fork),
    // Fork 1 branches off the main chain after block 7.
    parentHash: n === 0 ? `0x${"0".repeat(64)}` : hash(n - 1, fork !== 0 && n - 1 < 8 ? 0 : fork),
    number: hex(n),
    timestamp: hex(1_700_000_000 + 2 * n),
    // Not the empty bloom: with no filters, a block asks the RPC for nothing more.
    logsBloom: `0x${"ff".repeat(256)}`,
    transactions: [],
  };
}

const silent = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };
const logger = { ...silent, child: () => logger };

/** A realtime sync finalized at block 4, over an RPC that serves `served(n)` for block n. */
function realtimeSync(served: (n: number) => Block | null) {
  const rpc = {
    request: async ({ method, params }: { method: string; params: [string, boolean] }) => {
      if (method === "eth_getBlockByNumber") return served(Number(params[0]));
      if (method === "eth_getBlockByHash") {
        const id = Number(params[0]) - 1;
        return block(id % 1_000_000, Math.floor(id / 1_000_000));
      }
      throw new Error(`unexpected ${method}`);
    },
  };
  return createRealtimeSync({
    common: { logger, shutdown: { isKilled: false } },
    chain: { id: 8453, name: "base", finalityBlockCount: 30, pollingInterval: 1_000 },
    rpc,
    syncProgress: { finalized: block(4) },
    childAddresses: new Map(),
    eventCallbacks: [],
  });
}

async function feed(sync: RealtimeSync, head: Block): Promise<SyncEvent[]> {
  const events: SyncEvent[] = [];
  for await (const event of sync.sync(head)) events.push(event);
  return events;
}

const numbers = (blocks: Block[]) => blocks.map((b) => Number(b.number));

describe("Ponder's realtime sync (patched)", () => {
  it("takes a head behind its own for a lagging node while the RPC still serves its head", async () => {
    const sync = realtimeSync((n) => block(n));
    for (let n = 5; n <= 9; n++) await feed(sync, block(n));
    expect(numbers(sync.unfinalizedBlocks)).toEqual([5, 6, 7, 8, 9]);
    // A node three blocks behind answers with block 6, which we hold: nothing is unwound.
    expect(await feed(sync, block(6))).toEqual([]);
    // One behind with a block we never saw (its own fork), while our head is still served.
    expect(await feed(sync, block(8, 1))).toEqual([]);
    // At or below finality.
    expect(await feed(sync, block(3, 1))).toEqual([]);
    expect(numbers(sync.unfinalizedBlocks)).toEqual([5, 6, 7, 8, 9]);
  });

  it("still unwinds a real reorg: another block at its head's height, its own head gone", async () => {
    // The chain now holds fork 1 from block 8 on: our 8 and 9 are gone.
    const sync = realtimeSync((n) => (n >= 8 ? block(n, 1) : block(n)));
    for (let n = 5; n <= 9; n++) await feed(sync, block(n));
    const events = await feed(sync, block(9, 1));
    expect(events.map((e) => e.type)).toEqual(["reorg"]);
    expect(numbers(events[0]!.reorgedBlocks!)).toEqual([8, 9]);
    expect(numbers(sync.unfinalizedBlocks)).toEqual([5, 6, 7]);
  });

  it("announces each block joining its chain on the process (`ponder:block`)", async () => {
    const sync = realtimeSync((n) => block(n));
    const heard: unknown[] = [];
    const listener = (b: unknown) => heard.push(b);
    process.on("ponder:block" as never, listener);
    try {
      await feed(sync, block(5));
      await feed(sync, block(6));
    } finally {
      process.off("ponder:block" as never, listener);
    }
    expect(heard).toEqual([5, 6].map((n) => ({ chainId: 8453, ...pick(block(n)) })));
  });
});

describe("Ponder's realtime sync after a failed fetch (patched)", () => {
  it("fetches a head again when it comes again after its fetch failed: a quiet chain does not leave the indexer behind", async () => {
    // A lagging node: block 8 is not served yet when head 9 is announced.
    let lagging = true;
    const sync = realtimeSync((n) => (n === 8 && lagging ? null : block(n)));
    for (let n = 5; n <= 7; n++) await feed(sync, block(n));
    expect(await feed(sync, block(9))).toEqual([]);
    expect(numbers(sync.unfinalizedBlocks)).toEqual([5, 6, 7]);
    // The node has caught up; no new block is mined, the poll sees head 9 again.
    lagging = false;
    const events = await feed(sync, block(9));
    expect(events.filter((e) => e.type === "block").map((e) => Number(e.block!.number))).toEqual([8, 9]);
    expect(numbers(sync.unfinalizedBlocks)).toEqual([5, 6, 7, 8, 9]);
  });
});

function pick(b: Block) {
  return { number: b.number, hash: b.hash, timestamp: b.timestamp };
}
