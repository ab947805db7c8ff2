/**
 * `GET /api/events/head`, the long poll kusd-monitor waits on between polls: at once without
 * `after`; held while the head is `after`, answered when a new block is indexed (checked against
 * the chain's own head), or after `waitMs` with the head unchanged; bad input is a 400.
 */
import { describe, expect, it } from "vitest";
import { stack } from "../helpers/stack.js";

const s = stack();
type Head = { indexedHead: { blockNumber: number; timestamp: string } };
const head = async (query = "") => {
  const res = await fetch(`${s.indexerUrl}/api/events/head${query}`);
  return { status: res.status, body: (await res.json()) as Head & { error?: { code: string } } };
};

describe("the head long poll", () => {
  it("answers at once, holds while the head is unchanged, and answers when a block is indexed", async () => {
    const now = await s.caughtUp();
    expect((await head()).body.indexedHead.blockNumber).toBe(now);

    const t0 = Date.now();
    expect((await head(`?after=${now}&waitMs=300`)).body.indexedHead.blockNumber).toBe(now);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(290);

    const waiting = head(`?after=${now}&waitMs=20000`);
    await new Promise((r) => setTimeout(r, 200));
    await s.client.request({ method: "evm_mine" as never });
    const mined = Number(await s.client.getBlockNumber({ cacheTime: 0 }));
    const answered = await waiting;
    expect(answered.status).toBe(200);
    expect(answered.body.indexedHead.blockNumber).toBe(mined);

    expect((await head(`?after=${now - 1}&waitMs=20000`)).body.indexedHead.blockNumber).toBe(mined);
  });

  it.each([
    ["?waitMs=30001", "invalid_waitMs"],
    ["?waitMs=-1", "invalid_waitMs"],
    ["?after=0x10", "invalid_after"],
  ])("%s is a 400 %s", async (query, code) => {
    const r = await head(query);
    expect(r.status).toBe(400);
    expect(r.body.error?.code).toBe(code);
  });
});
