import { createPublicClient } from "viem";
import { describe, expect, it } from "vitest";
import { countedHttp, createRpcTally, methodsOf } from "./rpc-calls.js";

/** A JSON-RPC endpoint in a function: answers every call with block 0x10. */
const fakeNode = async (_url: RequestInfo | URL, init?: RequestInit) => {
  const body = JSON.parse(String(init?.body)) as { id: number } | { id: number }[];
  const answer = (c: { id: number }) => ({ jsonrpc: "2.0", id: c.id, result: "0x10" });
  return new Response(JSON.stringify(Array.isArray(body) ? body.map(answer) : answer(body)), {
    headers: { "content-type": "application/json" },
  });
};

describe("counting RPC calls as providers bill them", () => {
  it("names each call of a request body, one per element of a batch", () => {
    expect(methodsOf('{"jsonrpc":"2.0","id":1,"method":"eth_call","params":[]}')).toEqual(["eth_call"]);
    expect(
      methodsOf(JSON.stringify([{ method: "eth_getBlockByNumber" }, { method: "eth_call" }, { method: "eth_call" }])),
    ).toEqual(["eth_getBlockByNumber", "eth_call", "eth_call"]);
    expect(methodsOf("not json")).toEqual(["unparsed"]);
    expect(methodsOf(undefined)).toEqual(["unparsed"]);
  });

  it("counts every call a viem client sends, batched or not, by purpose and method, and each HTTP request", async () => {
    const tally = createRpcTally();
    const batched = createPublicClient({
      transport: countedHttp("http://rpc.test", "reports", { batch: true, fetchFn: fakeNode }, tally),
    });
    const single = createPublicClient({
      transport: countedHttp("http://rpc.test", "live reads", { fetchFn: fakeNode }, tally),
    });
    await Promise.all([
      batched.getBlockNumber({ cacheTime: 0 }),
      batched.getBalance({ address: "0x0000000000000000000000000000000000000001" }),
      batched.getBalance({ address: "0x0000000000000000000000000000000000000002" }),
    ]);
    await single.getBlockNumber({ cacheTime: 0 });
    const { calls, requests } = tally.snapshot();
    expect(calls.sort((a, b) => `${a.purpose}${a.method}`.localeCompare(`${b.purpose}${b.method}`))).toEqual([
      { purpose: "live reads", method: "eth_blockNumber", value: 1 },
      { purpose: "reports", method: "eth_blockNumber", value: 1 },
      { purpose: "reports", method: "eth_getBalance", value: 2 },
    ]);
    // Three calls in one JSON-RPC batch are one HTTP request, and three billed calls.
    expect(requests).toEqual({ reports: 1, "live reads": 1 });
  });
});
