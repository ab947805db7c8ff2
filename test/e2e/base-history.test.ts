/**
 * The Base history simulator (devnet/base-history.ts): a short anvil chain started at a real
 * Base height, presented through the proxy at the heights its timestamps have on Base, with
 * the empty blocks in between synthesised. viem, cast and a Ponder-like sync must all see one
 * consistent chain.
 */

import {
  type Address,
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  getAddress,
  type Hex,
  http,
  keccak256,
  type PublicClient,
  parseAbiItem,
  toHex,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AnvilHandle, startAnvil } from "../../devnet/anvil.js";
import { loadArtifact } from "../../devnet/artifacts.js";
import { BASE_GENESIS_TIMESTAMP, type BaseHistory, startBaseHistory } from "../../devnet/base-history.js";
import {
  EMPTY_TRIE_ROOT,
  EMPTY_UNCLES_HASH,
  gapHash,
  HeightMap,
  type RpcBlock,
} from "../../devnet/base-history-map.js";
import { cast } from "../helpers/cast.js";
import { freePort } from "../helpers/ports.js";

// anvil's first dev account (`--accounts 1` funds it).
const DEV_KEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80" as const;
const ALICE = getAddress("0x00000000000000000000000000000000000a11ce");
const BOB = getAddress("0x0000000000000000000000000000000000000b0b");
// A real-looking creation: a hash that exists on "mainnet" only, and the address it created.
const REAL_TX = keccak256(toHex("a creation transaction anvil never saw"));
const REAL_ADDRESS = "0x00000000000000000000000000000000000c4ea7" as const;

const GENESIS = 44_400_000n; // anvil --number
const DEPLOY = 45_400_000n; // the token's deployment, a million heights later
const T1 = 45_900_000n; // transfer to Alice
const T2 = 45_900_003n; // transfer to Bob, two gap heights after T1
const HEAD = 46_000_000n; // an empty block, the head
const tsOf = (h: bigint) => BASE_GENESIS_TIMESTAMP + 2 * Number(h);
const TRANSFER = parseAbiItem("event Transfer(address indexed from, address indexed to, uint256 value)");
const { abi, bytecode } = loadArtifact("TestToken");

let anvil: AnvilHandle;
let history: BaseHistory;
let client: PublicClient;
let direct: PublicClient; // anvil itself, to compare against
let token: Address;
const txs: Record<string, Hex> = {};

const raw = async (body: unknown) =>
  (await (
    await fetch(history.url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: typeof body === "string" ? body : JSON.stringify(body),
    })
  ).json()) as any;
const call = async (method: string, params: unknown[]) => raw({ jsonrpc: "2.0", id: 1, method, params });

beforeAll(async () => {
  anvil = await startAnvil({
    port: await freePort(),
    chainId: 8453,
    timestamp: tsOf(GENESIS),
    number: Number(GENESIS),
  });
  history = await startBaseHistory({ upstream: anvil.rpcUrl, port: 0, creations: {} });
  client = createPublicClient({
    cacheTime: 0,
    pollingInterval: 50,
    transport: http(history.url, { retryCount: 0 }),
  }) as PublicClient;
  direct = createPublicClient({ cacheTime: 0, transport: http(anvil.rpcUrl, { retryCount: 0 }) }) as PublicClient;
  // The history is written through the proxy too: a wallet must be able to use it as is.
  const account = privateKeyToAccount(DEV_KEY);
  const wallet = createWalletClient({ account, transport: http(history.url, { retryCount: 0 }) });
  const at = (h: bigint) => call("evm_setNextBlockTimestamp", [tsOf(h)]);
  await at(DEPLOY);
  txs.deploy = await wallet.deployContract({
    abi,
    bytecode,
    args: ["Test", "TST", 18, 10n ** 24n, account.address],
    chain: null,
  });
  token = (await client.waitForTransactionReceipt({ hash: txs.deploy })).contractAddress!;
  const transfer = async (to: Address, value: bigint, h: bigint) => {
    await at(h);
    const hash = await wallet.sendTransaction({
      to: token,
      data: encodeFunctionData({ abi, functionName: "transfer", args: [to, value] }),
      chain: null,
    });
    await client.waitForTransactionReceipt({ hash });
    return hash;
  };
  txs.t1 = await transfer(ALICE, 100n, T1);
  txs.t2 = await transfer(BOB, 7n, T2);
  await call("evm_mine", [tsOf(HEAD)]);
});

afterAll(async () => {
  await history?.stop();
  await anvil?.stop();
});

describe("height map", () => {
  const blk = (n: number, ts: number): RpcBlock => ({
    number: toHex(n),
    hash: toHex(n, { size: 32 }),
    parentHash: toHex(n - 1, { size: 32 }),
    timestamp: toHex(ts),
  });

  it("places blocks by timestamp, strictly increasing, and finds ranges by search", () => {
    const m = new HeightMap(1000, 2);
    m.update([blk(5, 900), blk(6, 1100), blk(7, 1100), blk(8, 1101), blk(9, 3000)]);
    expect([5n, 6n, 7n, 8n, 9n].map((n) => m.heightOfAnvil(n))).toEqual([0n, 50n, 51n, 52n, 1000n]);
    expect(m.slot(53n)).toEqual({ kind: "gap", height: 53n });
    expect(m.slot(1001n)).toBeNull();
    expect(m.stateBlock(999n).number).toBe(toHex(8));
    expect(m.anvilRange(1n, 51n)).toEqual([6n, 7n]);
    expect(m.anvilRange(53n, 999n)).toBeNull();
    // A block whose parent is not the one held replaces everything from its height on.
    m.update([{ ...blk(8, 2000), hash: toHex(88, { size: 32 }) }]);
    expect(m.heightOfAnvil(8n)).toBe(500n);
    expect(m.heightOfAnvil(9n)).toBeUndefined();
  });
});

describe("base history simulator", () => {
  it("answers the head at its real height, for viem and cast", async () => {
    expect(await client.getBlockNumber()).toBe(HEAD);
    expect(await cast(["block-number", "--rpc-url", history.url])).toBe(String(HEAD));
    expect(await client.getChainId()).toBe(8453);
    expect(await history.heightOf(GENESIS + 1n)).toBe(DEPLOY);
    expect(await history.heightOf(GENESIS)).toBe(GENESIS);
  });

  it("synthesises gap blocks with an unbroken parent chain across a real block", async () => {
    for (const center of [DEPLOY, T2, HEAD]) {
      const blocks = await Promise.all(
        Array.from({ length: 11 }, (_, i) => center - 5n + BigInt(i))
          .filter((h) => h <= HEAD)
          .map((h) => client.getBlock({ blockNumber: h })),
      );
      blocks.forEach((b, i) => {
        expect(b.number).toBe(center - 5n + BigInt(i));
        if (i > 0) expect(b.parentHash).toBe(blocks[i - 1]!.hash);
      });
    }
    const real = await client.getBlock({ blockNumber: DEPLOY });
    const anvilBlock = await direct.getBlock({ blockNumber: GENESIS + 1n });
    expect(real.hash).toBe(anvilBlock.hash);
    expect(real.timestamp).toBe(BigInt(tsOf(DEPLOY)));
    expect(real.parentHash).toBe(gapHash(DEPLOY - 1n));

    const gap = await client.getBlock({ blockNumber: DEPLOY + 1n });
    expect(gap).toMatchObject({
      hash: gapHash(DEPLOY + 1n),
      parentHash: real.hash,
      timestamp: BigInt(tsOf(DEPLOY + 1n)),
      transactions: [],
      gasUsed: 0n,
      transactionsRoot: EMPTY_TRIE_ROOT,
      receiptsRoot: EMPTY_TRIE_ROOT,
      sha3Uncles: EMPTY_UNCLES_HASH,
      uncles: [],
      stateRoot: anvilBlock.stateRoot,
      gasLimit: anvilBlock.gasLimit,
      nonce: "0x0000000000000000",
      extraData: "0x",
    });
    expect(BigInt(gap.logsBloom!)).toBe(0n);
    // Below anvil's first block the chain still reaches down to height 0.
    const low = await client.getBlock({ blockNumber: 1n });
    expect(low.parentHash).toBe((await client.getBlock({ blockNumber: 0n })).hash);
    expect((await client.getBlock({ blockNumber: GENESIS })).parentHash).toBe(gapHash(GENESIS - 1n));
  });

  it("finds blocks by hash, synthesised or real, and nothing above the head", async () => {
    const byHash = await client.getBlock({ blockHash: gapHash(T1 + 1n) });
    expect(byHash).toEqual(await client.getBlock({ blockNumber: T1 + 1n }));
    const t1 = await client.getBlock({ blockNumber: T1 });
    expect((await client.getBlock({ blockHash: t1.hash! })).number).toBe(T1);
    expect((await call("eth_getBlockByNumber", [toHex(HEAD + 1n), false])).result).toBeNull();
    expect((await call("eth_getBlockByHash", [gapHash(HEAD + 1n), false])).result).toBeNull();
    expect((await call("eth_getBlockByNumber", ["finalized", false])).result.number).toBe(toHex(HEAD));
  });

  it("answers eth_getLogs over millions of heights at once, with real block numbers", async () => {
    const started = Date.now();
    const logs = await client.getLogs({ address: token, event: TRANSFER, fromBlock: 0n, toBlock: HEAD });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(logs.map((l) => l.blockNumber)).toEqual([DEPLOY, T1, T2]);
    expect(logs.map((l) => l.args.to)).toEqual([privateKeyToAccount(DEV_KEY).address, ALICE, BOB]);
    for (const l of logs) expect(l.blockHash).toBe((await client.getBlock({ blockNumber: l.blockNumber })).hash);
    expect(await client.getLogs({ address: token, fromBlock: DEPLOY + 1n, toBlock: T1 - 1n })).toEqual([]);
    expect(await client.getLogs({ address: token, fromBlock: T1, toBlock: T1 })).toHaveLength(1);
    expect(await client.getLogs({ address: token, blockHash: gapHash(T1 + 1n) })).toEqual([]);
    const byHash = await client.getLogs({ address: token, blockHash: logs[2]!.blockHash });
    expect(byHash.map((l) => l.blockNumber)).toEqual([T2]);
  });

  it("reads state at a height as of the last real block at or below it", async () => {
    expect(await client.getCode({ address: token, blockNumber: DEPLOY - 1n })).toBeUndefined();
    expect((await call("eth_getCode", [token, toHex(GENESIS - 10n)])).result).toBe("0x");
    const code = await client.getCode({ address: token, blockNumber: DEPLOY });
    expect(code?.length).toBeGreaterThan(100);
    expect(await client.getCode({ address: token, blockNumber: DEPLOY + 12_345n })).toBe(code);
    const balanceOf = (blockNumber: bigint) =>
      client.readContract({ address: token, abi, functionName: "balanceOf", args: [ALICE], blockNumber });
    expect(await balanceOf(T1 - 1n)).toBe(0n);
    expect(await balanceOf(T1)).toBe(100n);
    expect(await balanceOf(T2 - 1n)).toBe(100n);
    // EIP-1898: a synthesised hash reads the state of its height.
    const data = encodeFunctionData({ abi, functionName: "balanceOf", args: [ALICE] });
    expect(BigInt((await call("eth_call", [{ to: token, data }, { blockHash: gapHash(T1 + 1n) }])).result)).toBe(100n);
    expect(BigInt((await call("eth_call", [{ to: token, data }, { blockNumber: toHex(T1 - 1n) }])).result)).toBe(0n);
    expect((await call("eth_call", [{ to: token, data }, toHex(HEAD + 1n)])).error.message).toMatch(/header not found/);
    const castAt = (h: bigint) =>
      cast(["call", token, "balanceOf(address)(uint256)", ALICE, "--block", String(h), "--rpc-url", history.url]);
    expect(await castAt(T1 - 1n)).toBe("0");
    expect(await castAt(T1 + 1n)).toBe("100");
  });

  it("rewrites block numbers in transactions and receipts", async () => {
    const receipt = await client.getTransactionReceipt({ hash: txs.deploy! });
    expect(receipt.blockNumber).toBe(DEPLOY);
    expect(receipt.logs.map((l) => l.blockNumber)).toEqual([DEPLOY]);
    expect((await client.getTransaction({ hash: txs.t1! })).blockNumber).toBe(T1);
    const full = await client.getBlock({ blockNumber: T2, includeTransactions: true });
    expect(full.transactions.map((t) => [t.hash, t.blockNumber])).toEqual([[txs.t2, T2]]);
    expect((await client.getTransaction({ blockNumber: T2, index: 0 })).hash).toBe(txs.t2);
    expect(await client.getBlockTransactionCount({ blockNumber: T2 })).toBe(1);
    expect(await client.getBlockTransactionCount({ blockNumber: T2 - 1n })).toBe(0);
    const receipts = (await call("eth_getBlockReceipts", [toHex(T1)])).result;
    expect(receipts.map((r: any) => [r.blockNumber, r.logs[0].blockNumber])).toEqual([[toHex(T1), toHex(T1)]]);
    expect((await call("eth_getBlockReceipts", [toHex(T1 + 1n)])).result).toEqual([]);
  });

  it("answers a real creation transaction hash with its anvil stand-in", async () => {
    history.addCreation(REAL_TX, { anvilTx: txs.deploy!, contractAddress: REAL_ADDRESS });
    const receipt = await client.getTransactionReceipt({ hash: REAL_TX });
    expect(receipt).toMatchObject({ transactionHash: REAL_TX, contractAddress: REAL_ADDRESS, blockNumber: DEPLOY });
    const tx = await client.getTransaction({ hash: REAL_TX });
    expect([tx.hash, tx.blockNumber]).toEqual([REAL_TX, DEPLOY]);
  });

  it("serves batches with ids preserved, passes upstream errors, refuses malformed requests", async () => {
    const before = history.stats().requests;
    const answers = await raw([
      { jsonrpc: "2.0", id: 7, method: "eth_blockNumber", params: [] },
      { jsonrpc: "2.0", id: "x", method: "eth_chainId", params: [] },
      { jsonrpc: "2.0", id: 9, method: "eth_getBlockByNumber", params: [toHex(T1 + 2n), false] },
      { jsonrpc: "2.0", id: 10, method: "no_suchMethod", params: [] },
      { jsonrpc: "2.0", id: 11, method: "eth_getBlockByNumber", params: ["0xnope", false] },
      42,
    ]);
    expect(answers.map((a: any) => a.id)).toEqual([7, "x", 9, 10, 11, null]);
    expect(answers[0].result).toBe(toHex(HEAD));
    expect(answers[1].result).toBe("0x2105");
    expect(answers[2].result.hash).toBe(gapHash(T1 + 2n));
    expect(answers[3].error.code).toBeTypeOf("number");
    expect(answers[4].error.code).toBe(-32602);
    expect(answers[5].error.code).toBe(-32600);
    expect(history.stats().requests).toBe(before + 6);
    expect((await raw("{not json")).error).toMatchObject({ code: -32700 });
    expect(await raw({ jsonrpc: "2.0", id: 3, params: [] })).toMatchObject({ id: 3, error: { code: -32600 } });
    expect((await raw([])).error.code).toBe(-32600);
    expect(await client.getBlockNumber()).toBe(HEAD); // still serving
  });

  it("behaves like a chain to a Ponder-style sync: backfill, realtime and a reorg", async () => {
    // Backfill: each log's block and receipt agree with the log.
    const finalized = await client.getBlock({ blockNumber: HEAD - 30n });
    expect(finalized.hash).toBe(gapHash(HEAD - 30n));
    const logs = await client.getLogs({ address: token, fromBlock: 44_408_526n, toBlock: finalized.number! });
    expect(logs).toHaveLength(3);
    for (const l of logs) {
      const b = await client.getBlock({ blockNumber: l.blockNumber, includeTransactions: true });
      expect(b.hash).toBe(l.blockHash);
      expect(b.transactions.find((t) => t.hash === l.transactionHash)?.blockNumber).toBe(l.blockNumber);
      const r = await client.getTransactionReceipt({ hash: l.transactionHash });
      expect([r.blockHash, r.blockNumber]).toEqual([b.hash, b.number]);
    }

    // Realtime: a new block three heights on; the poller walks the gap by number and parent hash.
    const head = await client.getBlock({ blockTag: "latest" });
    const snapshot = await call("evm_snapshot", []);
    const wallet = createWalletClient({ account: privateKeyToAccount(DEV_KEY), transport: http(history.url) });
    await call("evm_setNextBlockTimestamp", [tsOf(HEAD + 3n)]);
    const hash = await wallet.sendTransaction({
      to: token,
      data: encodeFunctionData({ abi, functionName: "transfer", args: [ALICE, 1n] }),
      chain: null,
    });
    await client.waitForTransactionReceipt({ hash });
    const next = await client.getBlock({ blockTag: "latest" });
    expect(next.number).toBe(HEAD + 3n);
    let parent = head;
    for (let h = HEAD + 1n; h <= next.number!; h++) {
      const b = await client.getBlock({ blockNumber: h });
      expect(b.parentHash).toBe(parent.hash);
      if (h < next.number!) expect(BigInt(b.logsBloom!)).toBe(0n); // a bloom filter skips gaps
      parent = b;
    }
    expect(parent.hash).toBe(next.hash);
    const live = await client.getLogs({ address: token, blockHash: next.hash! });
    expect(live.map((l) => [l.blockNumber, l.transactionHash])).toEqual([[HEAD + 3n, hash]]);

    // Reorg: anvil reverts (the head goes back at once) and mines another block.
    await call("evm_revert", [snapshot.result]);
    expect(await client.getBlockNumber()).toBe(HEAD);
    expect((await client.getBlock({ blockTag: "latest" })).hash).toBe(head.hash);
    await call("evm_mine", [tsOf(HEAD + 7n)]);
    expect(await client.getBlockNumber()).toBe(HEAD + 7n);
    expect((await client.getBlock({ blockNumber: HEAD + 3n })).hash).toBe(gapHash(HEAD + 3n));
    expect(await client.getLogs({ address: token, fromBlock: HEAD, toBlock: HEAD + 7n })).toEqual([]);
    expect((await client.getBlock({ blockNumber: HEAD + 7n })).parentHash).toBe(gapHash(HEAD + 6n));
  });
});
