/**
 * The pinned reader's batch on a chain of its own, through the fault proxy: before Multicall3 has
 * code the block's reads go out as one deployless aggregate3, once it has code (at its canonical
 * address, as on Base) as one aggregate3 to it; either way a read that fails inside the batch
 * (no code, a revert, an injected fault) fails only itself, and every other value equals a
 * direct read.
 */
import {
  type Address,
  createPublicClient,
  erc20Abi,
  http,
  type PublicClient,
  parseUnits,
  toFunctionSelector,
} from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devnetKey } from "../../devnet/keys.js";
import { installMulticall3 } from "../../devnet/multicall3.js";
import { type RpcProxy, startRpcProxy } from "../../devnet/rpc-proxy.js";
import { batchTarget, MULTICALL3, PinnedReader, tolerantReads } from "../../packages/verify/src/index.js";
import { startTestChain, type TestChain } from "../helpers/test-chain.js";

const holder = devnetKey("test:holder").address;
const NO_CODE = "0x00000000000000000000000000000000000c0de0" as const;
// A contract whose every call reverts (PUSH1 0 PUSH1 0 REVERT).
const REVERTS = "0x000000000000000000000000000000000000dead" as const;

let c: TestChain;
let proxy: RpcProxy;
let tokens: Address[];
let withoutMulticall: bigint;

/** A client as the API makes it (viem joins the multicalls of one turn), through the proxy. */
const apiClient = () =>
  createPublicClient({
    transport: http(proxy.url, { retryCount: 0, batch: true }),
    batch: { multicall: true },
  }) as PublicClient;

const balanceSpec = (token: Address) => ({
  to: token,
  signature: "balanceOf(address)(uint256)",
  args: [holder] as const,
});

/** The reads one report might make of a block, all started in one turn. */
async function readAll(client: PublicClient, block: bigint) {
  const r = new PinnedReader(client, block, "https://mainnet.base.org");
  const { read, failedReads, notDeployed } = tolerantReads(r);
  const values = await Promise.all([
    ...tokens.map((t) => read<bigint>(balanceSpec(t), 18)),
    read<bigint>({ to: NO_CODE, signature: "totalSupply()(uint256)" }),
    read<bigint>({ to: REVERTS, signature: "totalSupply()(uint256)" }),
  ]);
  return { values: values.map((v) => v?.value ?? null), failedReads, notDeployed };
}

/** The eth_calls the proxy forwarded while `run` ran, and how many of them went to Multicall3. */
async function calls<T>(run: () => Promise<T>): Promise<{ result: T; ethCalls: number; all: number }> {
  const before = proxy.stats();
  const result = await run();
  const after = proxy.stats();
  return {
    result,
    ethCalls: (after.byMethod.eth_call ?? 0) - (before.byMethod.eth_call ?? 0),
    all: after.forwarded - before.forwarded,
  };
}

beforeAll(async () => {
  c = await startTestChain();
  const deployer = devnetKey("test:deployer").address;
  tokens = [];
  for (const [i, amount] of [1, 22, 333].entries())
    tokens.push(await c.deploy("TestToken", deployer, [`T${i}`, `T${i}`, 18, parseUnits(String(amount), 18), holder]));
  await c.d.rpc("anvil_setCode", [REVERTS, "0x60006000fd"]);
  await c.d.mineEmpty(1);
  withoutMulticall = await c.d.client.getBlockNumber({ cacheTime: 0 });
  proxy = await startRpcProxy({ upstream: c.anvil.rpcUrl });
});

afterAll(async () => {
  await proxy?.stop();
  await c?.stop();
});

describe("a block's reads in one aggregate3", () => {
  it("before Multicall3 has code: one deployless eth_call; a contract without code is not deployed, a revert a failed read", async () => {
    const client = apiClient();
    expect(await batchTarget(client, withoutMulticall)).toEqual({ deployless: true });
    const { result, ethCalls } = await calls(() => readAll(client, withoutMulticall));
    expect(ethCalls).toBe(1);
    const direct = await Promise.all(
      tokens.map((t) =>
        c.d.client.readContract({
          address: t,
          abi: erc20Abi,
          functionName: "balanceOf",
          args: [holder],
          blockNumber: withoutMulticall,
        }),
      ),
    );
    expect(result.values).toEqual([...direct, null, null]);
    expect(result.notDeployed).toEqual([{ to: NO_CODE, read: "totalSupply()(uint256)", reason: "not_deployed" }]);
    expect(result.failedReads).toHaveLength(1);
    expect(result.failedReads[0]).toMatch(new RegExp(`^totalSupply\\(\\)\\(uint256\\) on ${REVERTS}: reverted`));
  });

  it("once Multicall3 has code at its canonical address, the batch goes to it; earlier blocks stay deployless", async () => {
    await installMulticall3(c.anvil.rpcUrl);
    await c.d.mineEmpty(1);
    const block = await c.d.client.getBlockNumber({ cacheTime: 0 });
    const client = apiClient();
    expect(await batchTarget(client, block)).toEqual({ multicallAddress: MULTICALL3 });
    expect(await batchTarget(client, withoutMulticall)).toEqual({ deployless: true });
    const seen: { to?: string }[] = [];
    const watching = createPublicClient({
      transport: http(proxy.url, {
        retryCount: 0,
        onFetchRequest: (_req, init) => {
          const body = JSON.parse(String(init.body));
          for (const call of Array.isArray(body) ? body : [body])
            if (call.method === "eth_call") seen.push(call.params[0]);
        },
      }),
      batch: { multicall: true },
    }) as PublicClient;
    await batchTarget(watching, block); // the code check (kept per RPC URL: none is sent now)
    const { result, ethCalls } = await calls(() => readAll(watching, block));
    expect(ethCalls).toBe(1);
    expect(seen.map((x) => x.to?.toLowerCase())).toEqual([MULTICALL3.toLowerCase()]);
    expect(result.values.slice(0, 3)).toEqual([1n, 22n, 333n].map((n) => n * 10n ** 18n));
    expect(result.failedReads).toHaveLength(1);
  });

  it("an injected fault of one inner call fails that read alone, in both kinds of batch", async () => {
    const head = await c.d.client.getBlockNumber({ cacheTime: 0 });
    for (const block of [withoutMulticall, head]) {
      proxy.setFaults([{ selector: toFunctionSelector("balanceOf(address)"), to: tokens[1]!, mode: "error" }]);
      try {
        const before = proxy.stats().failed;
        const { result, ethCalls } = await calls(() => readAll(apiClient(), block));
        expect(ethCalls, `block ${block}`).toBe(1);
        expect(proxy.stats().failed - before).toBe(1);
        expect(result.values[0]).toBe(10n ** 18n);
        expect(result.values[1]).toBeNull();
        expect(result.values[2]).toBe(333n * 10n ** 18n);
        expect(result.failedReads.find((f) => f.includes(tokens[1]!))).toMatch(/reverted: injected fault/);
      } finally {
        proxy.clearFaults();
      }
    }
  });

  it("the ether balance of an account rides in the batch through Multicall3's getEthBalance", async () => {
    const block = await c.d.client.getBlockNumber({ cacheTime: 0 });
    const client = apiClient();
    const r = new PinnedReader(client, block, "https://mainnet.base.org");
    const { result, all } = await calls(() =>
      Promise.all([r.nativeBalance(holder), r.call<bigint>(balanceSpec(tokens[0]!))]),
    );
    expect(all).toBe(1);
    expect(result[0]).toBe(await c.d.client.getBalance({ address: holder, blockNumber: block }));
    expect(result[1]).toBe(10n ** 18n);
    // The same figure's reproduction command is still `cast balance`, not a Multicall3 call.
    expect(r.balanceCommand(holder, "eth", result[0])).toMatch(/^cast balance /);
  });

  it("a getter probe tells a value, no data and a revert apart", async () => {
    const block = await c.d.client.getBlockNumber({ cacheTime: 0 });
    const r = new PinnedReader(apiClient(), block, "https://mainnet.base.org");
    const outcomes = await Promise.all([
      r.probe(tokens[0]!, "decimals()"),
      r.probe(NO_CODE, "decimals()"),
      r.probe(REVERTS, "decimals()"),
    ]);
    expect(outcomes).toEqual(["returned", "no data", "reverts"]);
  });
});
