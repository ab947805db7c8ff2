import { describe, expect, it } from "vitest";
import { createHeadWatch } from "../../io/head-watch.js";
import {
  type BlockRange,
  type LiveEvent,
  type LiveSource,
  type LiveState,
  liveStream,
  reconcile,
  scanPage,
} from "./stream.js";

type Row = { id: string; block: bigint };

type Chain = { rows: Row[]; head: bigint | null; queries: BlockRange[]; source: LiveSource<Row> };

const byBlock = (a: Row, b: Row) => (a.block === b.block ? a.id.localeCompare(b.id) : a.block < b.block ? -1 : 1);

/** An indexer in memory: rows and a head the test moves, as a reorg would. */
function chain(rows: Row[] = [], head: bigint | null = 0n): Chain {
  const c: Chain = {
    rows,
    head,
    queries: [],
    source: {
      head: async () => c.head,
      rows: async (r) => {
        c.queries.push(r);
        return c.rows
          .filter((x) => x.block >= r.fromBlock && x.block <= r.toBlock)
          .sort(byBlock)
          .slice(0, r.limit);
      },
      id: (x) => x.id,
      block: (x) => x.block,
    },
  };
  return c;
}

const shape = { id: (r: Row) => r.id, block: (r: Row) => r.block };
const scan = (fromBlock: bigint, throughBlock: bigint, rows: Row[], head = throughBlock) => ({
  fromBlock,
  throughBlock,
  head,
  rows,
});
const brief = (events: LiveEvent<Row>[]) => events.map((e) => `${e.kind} ${e.item.id}`);
const state = (floor: bigint): LiveState<Row> => ({ floor, known: new Map() });

describe("reconcile", () => {
  it("detects each new row once, in the page's order", () => {
    const s = state(0n);
    const a = { id: "a", block: 1n };
    const b = { id: "b", block: 2n };
    expect(brief(reconcile(s, scan(1n, 2n, [a, b]), shape))).toEqual(["DETECTED a", "DETECTED b"]);
    expect(brief(reconcile(s, scan(1n, 3n, [a, b]), shape))).toEqual([]);
  });

  it("retracts an emitted row its block no longer holds, and one above a head that went back", () => {
    const s = state(0n);
    const a = { id: "a", block: 5n };
    const b = { id: "b", block: 7n };
    reconcile(s, scan(1n, 7n, [a, b]), shape);
    // The head went back to 6: block 7 is gone, and block 5 lost its row.
    expect(brief(reconcile(s, scan(1n, 6n, []), shape))).toEqual(["RETRACTED a", "RETRACTED b"]);
    expect(s.known.size).toBe(0);
  });

  it("keeps an emitted row outside the page's blocks (a later page reads it)", () => {
    const s = state(0n);
    reconcile(s, scan(1n, 9n, [{ id: "late", block: 9n }]), shape);
    expect(brief(reconcile(s, scan(1n, 4n, [], 9n), shape))).toEqual([]);
  });

  it("retracts and detects again a row whose transaction moved to another block", () => {
    const s = state(0n);
    reconcile(s, scan(1n, 3n, [{ id: "tx-0", block: 3n }]), shape);
    expect(brief(reconcile(s, scan(1n, 4n, [{ id: "tx-0", block: 4n }]), shape))).toEqual([
      "RETRACTED tx-0",
      "DETECTED tx-0",
    ]);
  });

  it("forgets rows once they are reorgWindow blocks deep, and never rereads below the floor", () => {
    const s = state(0n);
    reconcile(
      s,
      scan(1n, 10n, [
        { id: "old", block: 2n },
        { id: "new", block: 9n },
      ]),
      shape,
      5n,
    );
    expect(s.floor).toBe(5n);
    expect([...s.known.values()].map((r) => r.id)).toEqual(["new"]);
    // A catch-up page below head - window moves the floor to its own end.
    const t = state(0n);
    reconcile(t, scan(1n, 3n, [], 100n), shape, 5n);
    expect(t.floor).toBe(3n);
  });
});

describe("scanPage", () => {
  it("reads up to the head when the page holds everything", async () => {
    const c = chain([{ id: "a", block: 2n }]);
    expect(await scanPage(c.source, 1n, 5n, 10)).toEqual(scan(1n, 5n, [{ id: "a", block: 2n }]));
  });

  it("ends a full page before the block it could not finish", async () => {
    const rows = ["a", "b", "c", "d"].map((id, i) => ({ id, block: BigInt(1 + Math.floor(i / 2)) })); // blocks 1,1,2,2
    const c = chain(rows);
    const page = await scanPage(c.source, 1n, 9n, 3);
    expect(page.throughBlock).toBe(1n);
    expect(page.rows.map((r) => r.id)).toEqual(["a", "b"]);
  });

  it("reads a block that alone overflows the page whole", async () => {
    const c = chain(["a", "b", "c"].map((id) => ({ id, block: 4n })));
    const page = await scanPage(c.source, 4n, 9n, 2);
    expect(page).toMatchObject({ fromBlock: 4n, throughBlock: 4n });
    expect(page.rows.map((r) => r.id)).toEqual(["a", "b", "c"]);
  });

  it("asks nothing when the range is empty (the head went below the floor)", async () => {
    const c = chain();
    expect(await scanPage(c.source, 8n, 6n)).toEqual({ fromBlock: 8n, throughBlock: 6n, head: 6n, rows: [] });
    expect(c.queries).toEqual([]);
  });
});

/** Resolves once `cond` holds (the stream polls on timers of its own). */
async function until(cond: () => boolean) {
  while (!cond()) await new Promise((r) => setTimeout(r, 2));
}

/** Pulls events until `n` arrived or `ms` passed. */
async function take(stream: AsyncIterator<LiveEvent<Row>>, n: number, ms = 2_000) {
  const out: LiveEvent<Row>[] = [];
  const deadline = Date.now() + ms;
  while (out.length < n && Date.now() < deadline) {
    const r = await Promise.race([stream.next(), new Promise<null>((ok) => setTimeout(() => ok(null), 50))]);
    if (r && !r.done) out.push(r.value);
    if (r?.done) break;
  }
  return out;
}

describe("liveStream", () => {
  it("from now: emits rows indexed after it starts, and retracts one a reorg removed", async () => {
    const c = chain([{ id: "before", block: 10n }], 10n);
    const stream = liveStream(c.source, { pollMs: 5 });
    const first = stream.next();
    await until(() => c.queries.length > 0); // the start: block 10 read, remembered, not emitted
    c.rows.push({ id: "new", block: 11n });
    c.head = 11n;
    expect((await first).value).toEqual({ kind: "DETECTED", item: { id: "new", block: 11n } });
    // A reorg back to block 9: both the new row and the one indexed before the stream started go.
    c.rows = [];
    c.head = 9n;
    expect(brief(await take(stream, 2))).toEqual(["RETRACTED before", "RETRACTED new"]);
    await stream.return?.();
  });

  it("replays from fromBlock in pages, then follows the head", async () => {
    const rows = Array.from({ length: 25 }, (_, i) => ({ id: `r${String(i).padStart(2, "0")}`, block: BigInt(i + 1) }));
    const c = chain(rows, 25n);
    const stream = liveStream(c.source, { fromBlock: 3n, pollMs: 5, pageSize: 4 });
    const events = await take(stream, 23);
    expect(events.map((e) => e.item.block)).toEqual(rows.slice(2).map((r) => r.block));
    expect(events.every((e) => e.kind === "DETECTED")).toBe(true);
    expect(c.queries[0]).toEqual({ fromBlock: 3n, toBlock: 25n, limit: 5 });
    await stream.return?.();
  });

  it("waits for the indexer's first checkpoint before it starts from now", async () => {
    const c = chain([], null);
    const stream = liveStream(c.source, { pollMs: 5 });
    const pending = stream.next();
    await new Promise((r) => setTimeout(r, 20));
    expect(c.queries).toEqual([]);
    c.rows.push({ id: "backfilled", block: 3n });
    c.head = 3n;
    await until(() => c.queries.length > 0);
    c.rows.push({ id: "live", block: 4n });
    c.head = 4n;
    expect((await pending).value).toMatchObject({ kind: "DETECTED", item: { id: "live" } });
    await stream.return?.();
  });

  it("return() ends a pending next() and stops polling", async () => {
    const c = chain([], 1n);
    const stream = liveStream(c.source, { pollMs: 5 });
    const pending = stream.next();
    await until(() => c.queries.length > 0);
    await stream.return?.();
    expect(await pending).toEqual({ done: true, value: undefined });
    const asked = c.queries.length;
    c.head = 50n;
    await new Promise((r) => setTimeout(r, 30));
    expect(c.queries.length).toBe(asked);
  });

  it("an aborted request signal ends it", async () => {
    const controller = new AbortController();
    const stream = liveStream(chain([], 1n).source, { pollMs: 5, signal: controller.signal });
    const pending = stream.next();
    controller.abort();
    expect(await pending).toEqual({ done: true, value: undefined });
  });

  it("with a head watch it reads again as soon as the head moves, not at its next poll", async () => {
    const c = chain([], 1n);
    const watch = createHeadWatch(
      async () => (c.head === null ? null : { chain: "base", chainId: 1, blockNumber: c.head, timestamp: 0 }),
      1,
    );
    const stream = liveStream(
      { ...c.source, beyond: (head, signal) => watch.beyond(head, signal) },
      { pollMs: 60_000 },
    );
    const pending = stream.next();
    await until(() => c.queries.length > 0);
    const movedAt = Date.now();
    c.rows.push({ id: "next", block: 2n });
    c.head = 2n;
    expect((await pending).value).toMatchObject({ kind: "DETECTED", item: { id: "next" } });
    expect(Date.now() - movedAt).toBeLessThan(5_000);
    await stream.return?.();
  });
});
