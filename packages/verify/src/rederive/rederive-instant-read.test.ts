/**
 * rederiveInstantRead against a made-up chain: every token read goes to the block by the hash the
 * payload signs (EIP-1898); a payload as the chain says re-derives equal, a raised supply differs
 * naming it, an RPC of the other chain is refused before any read (naming --rpc), a token that no
 * longer answers is null and listed, and an RPC that does not answer is no verdict.
 */
import { buildInstantReadPayload, type NetworkConfig } from "@kusd/core";
import { custom, encodeFunctionResult, parseAbi, toHex } from "viem";
import { describe, expect, it } from "vitest";
import { NetworkMismatchError } from "./network-check.js";
import { rederiveInstantRead } from "./rederive-instant-read.js";
import { RederivationError } from "./rederive-statement.js";

const ABI = parseAbi([
  "function symbol() view returns (string)",
  "function decimals() view returns (uint8)",
  "function totalSupply() view returns (uint256)",
]);
const TOKEN = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
const HASH = `0x${"7b".repeat(32)}` as const;
const BLOCK = { number: 1_234, hash: HASH, timestamp: 1_790_000_000 };
const SUPPLY = 3_912_664_017_250_000n;
const network = { chains: { base: { id: 8453 }, ethereum: { id: 1 } } } as unknown as NetworkConfig;
const payload = buildInstantReadPayload({
  chain: "base",
  chainId: 8453,
  address: TOKEN,
  symbol: "USDC",
  decimals: 6,
  totalSupply: SUPPLY,
  block: BLOCK,
  timestamp: BLOCK.timestamp + 4,
});

const SELECTORS: Record<string, "symbol" | "decimals" | "totalSupply"> = {
  "0x95d89b41": "symbol",
  "0x313ce567": "decimals",
  "0x18160ddd": "totalSupply",
};

/** A chain of `chainId` holding the token at BLOCK; `answer` overrides a read's return data. */
function chain(chainId: number, answer: Partial<Record<string, string | Error>> = {}) {
  const pinnedTo: unknown[] = [];
  const rpc = custom(
    {
      async request({ method, params }: { method: string; params?: unknown[] }) {
        if (method === "eth_chainId") return toHex(chainId);
        if (method === "eth_getBlockByHash")
          return params?.[0] === HASH
            ? { number: toHex(BLOCK.number), hash: HASH, timestamp: toHex(BLOCK.timestamp), stateRoot: HASH }
            : null;
        if (method === "eth_call") {
          const [call, block] = params as [{ data: string }, unknown];
          pinnedTo.push(block);
          const name = SELECTORS[call.data.slice(0, 10)]!;
          const override = answer[name];
          if (override instanceof Error) throw override;
          if (override !== undefined) return override;
          const result = { symbol: "USDC", decimals: 6, totalSupply: SUPPLY }[name];
          return encodeFunctionResult({ abi: ABI, functionName: name, result } as never);
        }
        throw new Error(`unexpected ${method}`);
      },
    },
    { retryCount: 0 },
  );
  return { rpc, pinnedTo };
}

const run = (p: unknown, c: ReturnType<typeof chain>) =>
  rederiveInstantRead(p, null, { rpc: c.rpc, network, networkName: "test" });

describe("rederiveInstantRead", () => {
  it("re-reads every figure at the block the payload signs, by its hash, and finds them equal", async () => {
    const c = chain(8453);
    const d = await run(payload, c);
    expect(d.rows.map((r) => [r.figure, r.kind]).sort()).toEqual([
      ["block_timestamp", "equal"],
      ["decimals", "equal"],
      ["symbol", "equal"],
      ["total_supply_grouped", "equal"],
      ["total_supply_raw", "equal"],
    ]);
    expect(payload.total_supply_grouped).toBe("3,912,664,017.25");
    expect(c.pinnedTo).toEqual(Array(3).fill({ blockHash: HASH, requireCanonical: true }));
    expect(d.block).toMatchObject({ number: 1_234n, hash: HASH });
  });

  it("names a raised supply as differing", async () => {
    const raised = { ...payload, total_supply_raw: (SUPPLY + 1n).toString() };
    const d = await run(raised, chain(8453));
    expect(d.rows.filter((r) => r.kind === "differs").map((r) => [r.figure, r.rederived])).toEqual([
      ["total_supply_raw", SUPPLY.toString()],
    ]);
  });

  it("refuses an RPC of another chain before reading anything, naming --rpc", async () => {
    const c = chain(1);
    await expect(run(payload, c)).rejects.toThrow(NetworkMismatchError);
    await expect(run(payload, c)).rejects.toThrow(
      "the instant read is of base (chain 8453) and the RPC given serves chain 1: pass a Base RPC as --rpc",
    );
    expect(c.pinnedTo).toEqual([]);
    const ethereum = { ...payload, chain: "ethereum", chain_id: 1 };
    await expect(run(ethereum, chain(8453))).rejects.toThrow("pass an Ethereum RPC as --rpc");
  });

  it("a token that no longer answers is null and listed; an RPC that does not answer is no verdict", async () => {
    const d = await run(payload, chain(8453, { totalSupply: "0x" }));
    const differs = d.rows.filter((r) => r.kind === "differs").map((r) => [r.figure, r.rederived]);
    expect(differs.sort()).toEqual([
      ["total_supply_grouped", null],
      ["total_supply_raw", null],
    ]);
    expect(d.failedReads).toHaveLength(1);
    expect(d.failedReads[0]).toMatch(/^totalSupply\(\) on 0x8335/);
    const down = run(payload, chain(8453, { symbol: new Error("fetch failed") }));
    await expect(down).rejects.toThrow(RederivationError);
    await expect(run(payload, chain(8453, { symbol: new Error("fetch failed") }))).rejects.toMatchObject({
      code: "rpc_failed",
    });
  });

  it("a payload that is not an instant read's, or whose chain id is not its chain's, is unreadable", async () => {
    await expect(run({ ...payload, block_hash: undefined }, chain(8453))).rejects.toMatchObject({
      code: "statement_unreadable",
    });
    await expect(run({ ...payload, chain_id: 1 }, chain(8453))).rejects.toThrow(/base is chain 8453/);
  });
});
