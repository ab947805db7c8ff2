import { createPublicClient } from "viem";
import { describe, expect, it } from "vitest";
import { ReaderBudget, readerHttp } from "./reader-budget.js";
import { inReaderRequest, readerRefusal } from "./reader-scope.js";
import { countedHttp, createRpcTally } from "./rpc-calls.js";

class Refused extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super(`refused, retry in ${retryAfterSeconds} s`);
  }
}

/** A JSON-RPC node in a function that counts the calls it received (each element of a batch). */
function fakeNode() {
  const seen = { calls: 0 };
  const fetchFn = async (_url: RequestInfo | URL, init?: RequestInit) => {
    const body = JSON.parse(String(init?.body)) as { id: number } | { id: number }[];
    const calls = Array.isArray(body) ? body : [body];
    seen.calls += calls.length;
    const answer = (c: { id: number }) => ({ jsonrpc: "2.0", id: c.id, result: "0x10" });
    return new Response(JSON.stringify(Array.isArray(body) ? body.map(answer) : answer(body)), {
      headers: { "content-type": "application/json" },
    });
  };
  return { seen, fetchFn };
}

const address = (i: number) => `0x${i.toString(16).padStart(40, "0")}` as const;

const budget = (o: { perSecond: number; burst: number; maxWaitMs: number }) =>
  new ReaderBudget({ ...o, refuse: (s) => new Refused(s) });

function readerClient(b: ReaderBudget, node: ReturnType<typeof fakeNode>, tally = createRpcTally()) {
  return createPublicClient({
    transport: readerHttp("http://rpc.test", "reports", b, { batch: true, fetchFn: node.fetchFn }, tally),
  });
}

describe("the readers' RPC budget at the transport", () => {
  it("sends the calls within the budget at once, a batch of N taking N", async () => {
    const node = fakeNode();
    const b = budget({ perSecond: 1, burst: 3, maxWaitMs: 0 });
    const tally = createRpcTally();
    const client = readerClient(b, node, tally);
    await Promise.all([1, 2, 3].map((i) => client.getBalance({ address: `0x${i.toString(16).padStart(40, "0")}` })));
    expect(node.seen.calls).toBe(3);
    expect(tally.snapshot().requests).toEqual({ reports: 1 }); // one JSON-RPC batch of three
    expect(b.used()).toEqual({ taken: 3, refusals: 0 });
  });

  it("over the budget, waits for the next token within the bound, then sends", async () => {
    const node = fakeNode();
    const b = budget({ perSecond: 20, burst: 1, maxWaitMs: 500 }); // a token every 50 ms
    const waits: number[] = [];
    b.onWait((s) => waits.push(s));
    const client = readerClient(b, node);
    const started = performance.now();
    await client.getBlockNumber({ cacheTime: 0 });
    await client.getBlockNumber({ cacheTime: 0 });
    expect(performance.now() - started).toBeGreaterThanOrEqual(40);
    expect(node.seen.calls).toBe(2);
    expect(waits).toHaveLength(1);
    // The wait is what remained of the token's 50 ms when the second call came: less by however
    // long the first call took (a loaded machine: milliseconds).
    expect(waits[0]).toBeGreaterThan(0);
    expect(waits[0]).toBeLessThanOrEqual(0.05);
  });

  it("past the bound, refuses before sending: the request's scope is marked, Retry-After is the wait, nothing is taken", async () => {
    const node = fakeNode();
    const b = budget({ perSecond: 0.5, burst: 1, maxWaitMs: 200 }); // the next token in 2 s
    const client = readerClient(b, node);
    const scope = await inReaderRequest(async () => {
      await client.getBlockNumber({ cacheTime: 0 });
      const second = await client.getBlockNumber({ cacheTime: 0 }).catch((e: unknown) => e);
      const refusal = readerRefusal(second);
      expect(refusal).toBeInstanceOf(Refused);
      expect((refusal as Refused).retryAfterSeconds).toBe(2);
    });
    expect(scope.refusal).toBeInstanceOf(Refused);
    expect(node.seen.calls).toBe(1);
    expect(b.used()).toEqual({ taken: 1, refusals: 1 });
  });

  it("keeps a quarter of the burst for the reads every reader shares: a request with reads of its own stops above it", async () => {
    const node = fakeNode();
    const b = budget({ perSecond: 0.5, burst: 8, maxWaitMs: 0 }); // a reserve of 2
    const client = readerClient(b, node);
    const read = () => client.getBlockNumber({ cacheTime: 0 });
    // A past block's request takes 6 calls, then is refused the 7th: 2 are kept.
    const past = await inReaderRequest(
      async () => {
        for (let i = 0; i < 7; i++) await read().catch(() => {});
      },
      { own: true },
    );
    expect(past.refusal).toBeInstanceOf(Refused);
    expect(node.seen.calls).toBe(6);
    // The head's report, which every reader shares, gets the 2 kept.
    const head = await inReaderRequest(async () => {
      await read();
      await read();
    });
    expect(head.refusal).toBeNull();
    expect(node.seen.calls).toBe(8);
  });

  it("bounds the whole request's wait, not each call's: a refused request waits no more", async () => {
    const node = fakeNode();
    const b = budget({ perSecond: 10, burst: 1, maxWaitMs: 150 }); // a token every 100 ms
    const client = readerClient(b, node);
    const started = performance.now();
    const scope = await inReaderRequest(async () => {
      for (let i = 0; i < 5; i++) await client.getBlockNumber({ cacheTime: 0 }).catch(() => null);
    });
    const took = performance.now() - started;
    expect(scope.refusal).toBeInstanceOf(Refused);
    expect(node.seen.calls).toBe(2); // the burst, then one 100 ms later; the third would end past 150 ms
    expect(took).toBeLessThan(400);
  });

  it("a call still waiting when its request is refused is not sent, and gives its token back", async () => {
    const node = fakeNode();
    const b = budget({ perSecond: 10, burst: 1, maxWaitMs: 150 }); // a token every 100 ms
    const client = readerClient(b, node);
    const scope = await inReaderRequest(async () => {
      await client.getBalance({ address: address(1) });
      // Two more at once: the first waits 100 ms for its token, the second would wait 200: refused.
      await Promise.allSettled([
        client.getBalance({ address: address(2) }),
        client.getBalance({ address: address(3) }),
      ]);
    });
    expect(scope.refusal).toBeInstanceOf(Refused);
    expect(node.seen.calls).toBe(1);
    expect(b.used()).toEqual({ taken: 1, refusals: 2 });
    expect(b.tokens()).toBeGreaterThan(0.5); // the waiting call's token came back
  });

  it("under contention, spends the budget on requests that complete: one let in goes first, one refused at the door spent nothing", async () => {
    const node = fakeNode();
    const b = budget({ perSecond: 20, burst: 2, maxWaitMs: 500 }); // a token every 50 ms
    const client = readerClient(b, node);
    // Ten readers at once, each a report of three reads one after another.
    const requests = Array.from({ length: 10 }, async (_, i) => {
      let sent = 0;
      const scope = await inReaderRequest(async () => {
        for (let k = 0; k < 3; k++) {
          await client.getBalance({ address: `0x${(i * 10 + k + 1).toString(16).padStart(40, "0")}` });
          sent++;
        }
      }).catch(() => null);
      return { sent, refused: scope === null || scope.refusal !== null };
    });
    const done = await Promise.all(requests);
    const completed = done.filter((d) => !d.refused);
    expect(completed.length).toBeGreaterThanOrEqual(2);
    for (const d of completed) expect(d.sent).toBe(3);
    // What refused requests sent (wasted) is at most the burst that let the first wave in.
    const wasted = done.filter((d) => d.refused).reduce((sum, d) => sum + d.sent, 0);
    expect(wasted).toBeLessThanOrEqual(2);
    expect(node.seen.calls).toBe(3 * completed.length + wasted);
  });

  it("never touches the indexer's transport: its calls go out while the readers' budget is spent", async () => {
    const node = fakeNode();
    const b = budget({ perSecond: 0.1, burst: 1, maxWaitMs: 0 });
    const reader = readerClient(b, node);
    await reader.getBlockNumber({ cacheTime: 0 });
    await expect(reader.getBlockNumber({ cacheTime: 0 })).rejects.toThrow();
    const used = b.used();
    const tally = createRpcTally();
    const indexer = createPublicClient({
      transport: countedHttp("http://rpc.test", "indexing", { fetchFn: node.fetchFn }, tally),
    });
    for (let i = 0; i < 5; i++) await indexer.getBlockNumber({ cacheTime: 0 });
    expect(node.seen.calls).toBe(1 + 5);
    expect(tally.snapshot().calls).toEqual([{ purpose: "indexing", method: "eth_blockNumber", value: 5 }]);
    expect(b.used()).toEqual(used);
  });
});
