/**
 * The JSON-RPC fault-injection proxy (devnet/rpc-proxy.ts) in front of a plain anvil: calls pass
 * through unchanged, and only the calls matching a fault fail, in the way the fault says.
 */

import { createPublicClient, type Hex, http } from "viem";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type AnvilHandle, startAnvil } from "../../devnet/anvil.js";
import { type RpcProxy, startRpcProxy } from "../../devnet/rpc-proxy.js";
import { freePort } from "../helpers/ports.js";

const CHAIN_ID = 31_999;
const NO_CODE = "0x00000000000000000000000000000000000c0de0" as const; // no contract here: eth_call answers 0x
const HAS_ROLE = "0x91d14854" as const; // hasRole(bytes32,address)
const BALANCE_OF = "0x70a08231" as const; // balanceOf(address)
const calldata = (selector: Hex) => `${selector}${"00".repeat(64)}` as Hex;

let anvil: AnvilHandle;
let proxy: RpcProxy;

// No retries and no caching, so each viem call is exactly one request through the proxy.
const client = (options: { batch?: boolean; timeout?: number } = {}) =>
  createPublicClient({ cacheTime: 0, transport: http(proxy.url, { retryCount: 0, ...options }) });

beforeAll(async () => {
  anvil = await startAnvil({ port: await freePort(), chainId: CHAIN_ID, timestamp: Math.floor(Date.now() / 1000) });
  proxy = await startRpcProxy({ upstream: anvil.rpcUrl });
});

afterAll(async () => {
  await proxy?.stop();
  await anvil?.stop();
});

afterEach(() => {
  proxy.clearFaults();
  proxy.setLag(null);
});

describe("rpc proxy", () => {
  it("passes calls through to the upstream", async () => {
    const c = client();
    expect(await c.getBlockNumber()).toBe(0n);
    expect(await c.getChainId()).toBe(CHAIN_ID);
    expect(proxy.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it("fails only the faulted method (mode error)", async () => {
    const c = client();
    const before = proxy.stats();
    proxy.setFaults([{ method: "eth_chainId", mode: "error" }]);
    await expect(c.getChainId()).rejects.toThrow(/injected fault/);
    expect(await c.getBlockNumber()).toBe(0n);
    expect(proxy.stats()).toMatchObject({ forwarded: before.forwarded + 1, failed: before.failed + 1 });
    expect(proxy.stats().byMethod.eth_blockNumber).toBe((before.byMethod.eth_blockNumber ?? 0) + 1);
  });

  it("fails only eth_call with the faulted selector, and only to the faulted target", async () => {
    const c = client();
    // An address with no code answers every eth_call with 0x, which viem reports as no data.
    expect((await c.call({ to: NO_CODE, data: calldata(HAS_ROLE) })).data).toBeUndefined();

    proxy.setFaults([{ selector: HAS_ROLE, mode: "error" }]);
    await expect(c.call({ to: NO_CODE, data: calldata(HAS_ROLE) })).rejects.toThrow(/injected fault/);
    expect((await c.call({ to: NO_CODE, data: calldata(BALANCE_OF) })).data).toBeUndefined();

    // `to` is compared case-insensitively, and every given field must match.
    proxy.setFaults([{ to: NO_CODE.toUpperCase().replace("0X", "0x") as Hex, selector: HAS_ROLE, mode: "error" }]);
    await expect(c.call({ to: NO_CODE, data: calldata(HAS_ROLE) })).rejects.toThrow(/injected fault/);
    expect((await c.call({ to: NO_CODE, data: calldata(BALANCE_OF) })).data).toBeUndefined();
    const other = "0x0000000000000000000000000000000000000001" as const;
    expect((await c.call({ to: other, data: calldata(HAS_ROLE) })).data).toBeUndefined();
  });

  it("errors only the faulted element of a batch", async () => {
    const c = client({ batch: true });
    proxy.setFaults([{ method: "eth_chainId", mode: "error" }]);
    const [chainId, block] = await Promise.allSettled([c.getChainId(), c.getBlockNumber()]);
    expect(chainId.status).toBe("rejected");
    expect(String((chainId as PromiseRejectedResult).reason)).toMatch(/injected fault/);
    expect(block).toEqual({ status: "fulfilled", value: 0n });

    // The same on the wire: one HTTP 200 answer, elements in request order, only one an error.
    const res = await fetch(proxy.url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify([
        { jsonrpc: "2.0", id: 7, method: "eth_blockNumber", params: [] },
        { jsonrpc: "2.0", id: 8, method: "eth_chainId", params: [] },
        { jsonrpc: "2.0", id: 9, method: "eth_blockNumber", params: [] },
      ]),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([
      { jsonrpc: "2.0", id: 7, result: "0x0" },
      { jsonrpc: "2.0", id: 8, error: { code: -32603, message: "injected fault" } },
      { jsonrpc: "2.0", id: 9, result: "0x0" },
    ]);
  });

  it("answers HTTP 500 for the whole request (mode http500)", async () => {
    proxy.setFaults([{ method: "eth_blockNumber", mode: "http500" }]);
    await expect(client().getBlockNumber()).rejects.toThrow(/500/);
    const res = await fetch(proxy.url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify([
        { jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] },
        { jsonrpc: "2.0", id: 2, method: "eth_blockNumber", params: [] },
      ]),
    });
    expect(res.status).toBe(500);
    expect(await client().getChainId()).toBe(CHAIN_ID);
  });

  it("never answers (mode timeout), so the client's own timeout fires", async () => {
    proxy.setFaults([{ method: "eth_blockNumber", mode: "timeout" }]);
    const started = Date.now();
    await expect(client({ timeout: 500 }).getBlockNumber()).rejects.toThrow(/took too long|timed out/i);
    expect(Date.now() - started).toBeGreaterThanOrEqual(450);
    expect(await client().getChainId()).toBe(CHAIN_ID);
  });

  it("answers HTTP 429 like a rate-limiting provider (mode http429)", async () => {
    proxy.setFaults([{ method: "eth_blockNumber", mode: "http429" }]);
    const error = (await client()
      .getBlockNumber()
      .catch((e: unknown) => e)) as { status?: number };
    expect(error.status).toBe(429); // what Ponder and viem look at to back off
    const res = await fetch(proxy.url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 3, method: "eth_blockNumber", params: [] }),
    });
    expect(res.status).toBe(429);
    expect(await res.json()).toEqual({
      jsonrpc: "2.0",
      id: 3,
      error: { code: 429, message: "Too Many Requests (injected fault)" },
    });
    expect(await client().getChainId()).toBe(CHAIN_ID);
  });

  it("fails only a share of the calls with rate, the same share for the same seed", async () => {
    const run = async (seed: number) => {
      const p = await startRpcProxy({ upstream: anvil.rpcUrl, seed });
      try {
        p.setFaults([{ method: "eth_blockNumber", mode: "error", rate: 0.3 }]);
        const c = createPublicClient({ cacheTime: 0, transport: http(p.url, { retryCount: 0 }) });
        const outcomes: boolean[] = [];
        for (let i = 0; i < 200; i++)
          outcomes.push(
            await c.getBlockNumber().then(
              () => true,
              () => false,
            ),
          );
        return outcomes;
      } finally {
        await p.stop();
      }
    };
    const [a, b, other] = [await run(7), await run(7), await run(8)];
    const failed = a.filter((ok) => !ok).length;
    expect(failed).toBeGreaterThan(30); // 200 × 0.3 = 60 expected
    expect(failed).toBeLessThan(90);
    expect(b).toEqual(a);
    expect(other).not.toEqual(a);
    expect(() => proxy.setFaults([{ mode: "error", rate: 0 }])).toThrow(/rate/);
  });

  it("takes faults and reports stats over HTTP", async () => {
    const c = client();
    const post = (body: unknown) =>
      fetch(`${proxy.url}/__proxy/faults`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });

    expect((await post([{ method: "eth_chainId", mode: "error" }])).status).toBe(200);
    await expect(c.getChainId()).rejects.toThrow(/injected fault/);
    const stats = (await (await fetch(`${proxy.url}/__proxy/stats`)).json()) as ReturnType<RpcProxy["stats"]>;
    expect(stats).toEqual(proxy.stats());
    expect(stats.failed).toBeGreaterThan(0);

    expect((await post([{ method: "eth_chainId", mode: "sometimes" }])).status).toBe(400);
    await expect(c.getChainId()).rejects.toThrow(/injected fault/); // a rejected body changes nothing

    expect((await post([])).status).toBe(200); // an empty array clears
    expect(await c.getChainId()).toBe(CHAIN_ID);
  });

  it("clearing the faults restores every call", async () => {
    const c = client();
    proxy.setFaults([
      { method: "eth_chainId", mode: "error" },
      { method: "eth_blockNumber", mode: "http500" },
      { selector: HAS_ROLE, mode: "error" },
    ]);
    await expect(c.getChainId()).rejects.toThrow();
    await expect(c.getBlockNumber()).rejects.toThrow();
    proxy.clearFaults();
    expect(await c.getChainId()).toBe(CHAIN_ID);
    expect(await c.getBlockNumber()).toBe(0n);
    expect((await c.call({ to: NO_CODE, data: calldata(HAS_ROLE) })).data).toBeUndefined();
  });

  it("answers 502 with a JSON-RPC error when the upstream is down", async () => {
    const dead = await startRpcProxy({ upstream: `http://127.0.0.1:${await freePort()}` });
    try {
      const res = await fetch(dead.url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
      });
      expect(res.status).toBe(502);
      expect(((await res.json()) as { error: { code: number } }).error.code).toBe(-32603);
    } finally {
      await dead.stop();
    }
  });

  // Last: it mines a block, and the tests above expect block 0.
  it("sends the call upstream and drops its answer (mode blackhole): a transaction lands, its sender hears nothing", async () => {
    const sender = "0x00000000000000000000000000000000000a11ce" as const;
    await fetch(anvil.rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "anvil_setBalance",
        params: [sender, "0xde0b6b3a7640000"],
      }),
    });
    await fetch(anvil.rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "anvil_impersonateAccount", params: [sender] }),
    });
    const before = await client().getTransactionCount({ address: sender });
    proxy.setFaults([{ method: "eth_sendTransaction", mode: "blackhole" }]);
    const send = fetch(proxy.url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "eth_sendTransaction",
        params: [{ from: sender, to: NO_CODE, value: "0x1" }],
      }),
      signal: AbortSignal.timeout(1_500),
    });
    await expect(send).rejects.toThrow(/abort|timeout/i);
    expect(await client().getTransactionCount({ address: sender })).toBe(before + 1); // it was mined all the same
  });
  it("answers as a node some blocks behind while a lag is set: older head, blocks above it not found", async () => {
    const c = client();
    await c.request({ method: "anvil_mine" as never, params: ["0xa"] as never });
    const head = await c.getBlockNumber();
    proxy.setLag({ blocks: 3 });
    expect(await c.getBlockNumber()).toBe(head - 3n);
    expect((await c.getBlock()).number).toBe(head - 3n);
    const top = await createPublicClient({ transport: http(anvil.rpcUrl) }).getBlock({ blockNumber: head });
    await expect(c.getBlock({ blockNumber: head })).rejects.toThrow(/could not be found/);
    await expect(c.getBlock({ blockHash: top.hash })).rejects.toThrow(/could not be found/);
    await expect(c.getLogs({ fromBlock: head - 1n, toBlock: head })).rejects.toThrow(/header not found/);
    await expect(c.getLogs({ blockHash: top.hash })).rejects.toThrow(/unknown block/);
    await expect(c.getBalance({ address: NO_CODE, blockNumber: head })).rejects.toThrow(/header not found/);
    expect(await c.getBalance({ address: NO_CODE })).toBe(
      await c.getBalance({ address: NO_CODE, blockNumber: head - 3n }),
    );
    expect(proxy.stats().lagged).toBeGreaterThan(0);
    proxy.setLag(null);
    expect(await c.getBlockNumber()).toBe(head);
  });
});
