/**
 * The realized-yield board and the paid instant read re-derived by a reader (issue 57).
 * `kusd-verify --report` on /api/honesty-index: the live board re-derives with no figure
 * differing (skUSD's realized APY checked here against convertToAssets read directly), its
 * advertised APY declared; a copy with one realized APY changed fails naming it; a window whose
 * start block is moved by one fails, the reader finding the last block at or before the target
 * from the blocks' own timestamps. A signed instant read bought from the gateway re-reads equal
 * against the Base devnet RPC, and for an ethereum read against the Ethereum devnet RPC (its total
 * supply checked here directly); the other chain's RPC is refused with exit 2 naming --rpc; a
 * re-signed copy with a raised total supply fails naming it.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { canonicalJson, type InstantReadPayload, signPayload } from "@kusd/core";
import {
  createPublicClient,
  getAddress,
  http,
  type PublicClient,
  parseAbiItem,
  parseUnits,
  type Transport,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { networkFileOf } from "../../devnet/network-document.js";
import { buy } from "../../packages/buy/src/index.js";
import {
  loadNetworkDocument,
  networkOf,
  rederiveInstantRead,
  rederiveReport,
  runVerify,
} from "../../packages/verify/src/node.js";
import { fundedAgent } from "../helpers/payment.js";
import { stack } from "../helpers/stack.js";

const s = stack();
const d = s.deployment;
const network = networkFileOf(inject("deploymentFile"));
const ethereumRpc = d.chains.ethereum.rpcUrl;
const operator = getAddress(d.signers.operator);
const binding = `${s.indexerUrl}/api/por/signer-registry`;
const dir = mkdtempSync(join(tmpdir(), "kusd-rederive-board-reads-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let written = 0;
async function verify(doc: unknown, args: string[]) {
  const file = join(dir, `doc-${written++}.json`);
  writeFileSync(file, JSON.stringify(doc));
  const { exitCode, output } = await runVerify([file, ...args, "--json"]);
  return { exitCode, result: JSON.parse(output) };
}
const report = (doc: unknown) => verify(doc, ["--report", "--rpc", s.rpcUrl, "--network", network]);
const rowOf = (result: any, figure: string) => result.figures.find((f: any) => f.figure === figure);
const differing = (result: any) => result.figures.filter((f: any) => f.kind === "differs").map((f: any) => f.figure);
const checkOf = (result: any, name: string) => result.checks.find((c: any) => c.name === name);

/** A transport that counts every JSON-RPC request by method. */
function counting(url: string) {
  const calls: Record<string, number> = {};
  const transport: Transport = (config) => {
    const inner = http(url, { batch: { batchSize: 100 } })(config);
    return {
      ...inner,
      request: (async (args: { method: string }) => {
        calls[args.method] = (calls[args.method] ?? 0) + 1;
        return inner.request(args as never);
      }) as typeof inner.request,
    };
  };
  return { transport, calls, total: () => Object.values(calls).reduce((a, b) => a + b, 0) };
}

const convertToAssets = parseAbiItem("function convertToAssets(uint256) view returns (uint256)");
const erc20 = [
  parseAbiItem("function totalSupply() view returns (uint256)"),
  parseAbiItem("function symbol() view returns (string)"),
];

describe("kusd-verify --report on /api/honesty-index", () => {
  let board: any;
  beforeAll(async () => {
    await s.caughtUp();
    board = await (await fetch(`${s.indexerUrl}/api/honesty-index`)).json();
  });

  it("costs at most 21 RPC calls, read cold: the network check, the head by hash, two headers a window, one call a block", async () => {
    const { doc, name } = await loadNetworkDocument(network);
    const rpc = counting(s.rpcUrl);
    const r = await rederiveReport(board, {
      rpc: rpc.transport,
      network: networkOf(doc, s.rpcUrl),
      networkName: name,
      venue: null,
      venueNowMaxAgeSeconds: 60,
      nowMs: Date.now(),
    });
    expect(r.rows.filter((x) => x.kind === "differs")).toEqual([]);
    // The network check's chain id and code at its five contracts; Multicall3's code at each of the four blocks.
    // Code seen at a block stays known to the process for that RPC URL (read-plan/code-presence.ts), so a
    // file run after another that read the same contracts asks for fewer, or none.
    const { eth_getCode, ...rest } = rpc.calls;
    expect(rest).toEqual({ eth_chainId: 1, eth_getBlockByHash: 1, eth_getBlockByNumber: 6, eth_call: 4 });
    expect(eth_getCode ?? 0).toBeLessThanOrEqual(9);
    console.log(`[honesty-index] ${rpc.total()} RPC calls: ${JSON.stringify(rpc.calls)}`);
  });

  it("the live board re-derives with no figure differing; skUSD's realized APY is what convertToAssets says", async () => {
    const { exitCode, result } = await report(board);
    expect(differing(result)).toEqual([]);
    expect(exitCode).toBe(0);
    expect(checkOf(result, "window blocks").ok).toBe(true);
    const sk = board.vaults[0];
    expect(sk.name).toBe("skUSD");
    // Independently: the share price at both ends of each window, and the blocks' own times.
    for (const days of [7, 30, 90]) {
      const w = sk.realized[`${days}d`];
      const at = async (block: number) => {
        const [assets, b] = await Promise.all([
          s.client.readContract({
            address: s.addr("skUSD"),
            abi: [convertToAssets],
            functionName: "convertToAssets",
            args: [10n ** 24n],
            blockNumber: BigInt(block),
          }),
          s.client.getBlock({ blockNumber: BigInt(block) }),
        ]);
        return { assets, t: Number(b.timestamp) };
      };
      const [from, to] = await Promise.all([at(w.fromBlock), at(w.toBlock)]);
      const byHand = (Number(to.assets) / Number(from.assets) - 1) * (365 / ((to.t - from.t) / 86_400));
      const row = rowOf(result, `vaults[0].realized.${days}d.realizedAPY`);
      expect(row.kind).toBe("equal");
      expect(row.rederived).toBeCloseTo(byHand, 7);
      // The window starts at the last block at or before the head's time minus the window.
      const next = await s.client.getBlock({ blockNumber: BigInt(w.fromBlock + 1) });
      expect(from.t).toBeLessThanOrEqual(to.t - days * 86_400);
      expect(Number(next.timestamp)).toBeGreaterThan(to.t - days * 86_400);
    }
    // skUSD's advertised APY is /api/apy's modelled expectedAPY: declared, never equal.
    expect(rowOf(result, "vaults[0].advertisedAPY")).toMatchObject({ kind: "declared", equal: null });
    const kinds = new Set(result.figures.map((f: any) => f.kind));
    expect([...kinds].sort()).toEqual(["declared", "equal"]);
    expect(result.figures.filter((f: any) => f.kind === "declared").map((f: any) => f.figure)).toEqual([
      "vaults[0].advertisedAPY",
    ]);
    // The signed board verifies on the signature path too, its pins inside the signed bytes.
    const signed = await verify(board, ["--binding", binding, "--operator", operator]);
    expect(signed.exitCode).toBe(0);
    expect(JSON.parse(board.signed_payload_canonical).pins).toEqual(board.pins);
    const file = join(dir, "board.json");
    writeFileSync(file, JSON.stringify(board));
    const text = await runVerify([file, "--report", "--rpc", s.rpcUrl, "--network", network]);
    console.log(`[honesty-index] ${text.output.split("\n").find((l) => l.startsWith("figures:"))}`);
  });

  it("a copy with one realized APY changed fails naming it", async () => {
    const altered = structuredClone(board);
    altered.vaults[0].realized["30d"].realizedAPY += 0.001;
    const { exitCode, result } = await report(altered);
    expect(exitCode).toBe(1);
    expect(differing(result)).toEqual(["vaults[0].realized.30d.realizedAPY"]);
  });

  it("a window whose start block is moved by one, either way, fails naming the window and its blocks", async () => {
    const k = board.pins.windows.findIndex((w: any) => w.chain === "base" && w.days === 7);
    const start = board.pins.windows[k].block.number;
    const header = async (n: number) => {
      const b = await s.client.getBlock({ blockNumber: BigInt(n) });
      return { number: n, hash: b.hash, timestamp: Number(b.timestamp) };
    };
    for (const moved of [start + 1, start - 1]) {
      const altered = structuredClone(board);
      altered.pins.windows[k] = {
        ...altered.pins.windows[k],
        block: await header(moved),
        next: await header(moved + 1),
      };
      for (const v of altered.vaults) if (v.realized["7d"].fromBlock !== null) v.realized["7d"].fromBlock = moved;
      const { exitCode, result } = await report(altered);
      expect(exitCode, `moved to ${moved}`).toBe(1);
      const windows = checkOf(result, "window blocks");
      expect(windows.ok).toBe(false);
      expect(windows.detail).toMatch(new RegExp(`base 7d: the pins name block ${moved} .* is block ${start} `));
      expect(differing(result)).toContain("vaults[0].realized.7d.fromBlock");
      expect(rowOf(result, "vaults[0].realized.7d.fromBlock").rederived).toBe(start);
    }
  });
});

describe("kusd-verify --rpc on a signed instant read", () => {
  const gateway = `${s.indexerUrl}/paid`;
  const limit = { network: "eip155:8453" as const, asset: getAddress(s.addr("usdc")), maxAmount: parseUnits("29", 6) };
  const reads: Record<"base" | "ethereum", any> = { base: null, ethereum: null };
  const tokens = { base: getAddress(s.addr("usdc")), ethereum: getAddress(d.chains.ethereum.contracts.DAI!.address) };
  const rpcOf = { base: s.rpcUrl, ethereum: ethereumRpc };

  beforeAll(async () => {
    await s.caughtUp();
    for (const chain of ["base", "ethereum"] as const) {
      const agent = await fundedAgent(s, `rederive-instant-${chain}`, 30);
      const p = await buy({
        url: `${gateway}/instant-read`,
        method: "POST",
        body: { chain, address: tokens[chain] },
        privateKey: agent.key,
        limit,
        trust: { binding, operator },
      });
      expect(p.status).toBe(200);
      reads[chain] = p.artifact;
    }
  }, 120_000);

  for (const chain of ["base", "ethereum"] as const) {
    it(`a ${chain} read re-reads equal against the ${chain} devnet RPC; its total supply is the chain's at the signed block`, async () => {
      const { exitCode, result } = await verify(reads[chain], [
        "--binding",
        binding,
        "--operator",
        operator,
        "--rpc",
        rpcOf[chain],
        "--network",
        network,
      ]);
      expect(differing(result)).toEqual([]);
      expect(exitCode).toBe(0);
      expect(result.figures.map((f: any) => [f.figure, f.kind])).toEqual([
        ["block_timestamp", "equal"],
        ["decimals", "equal"],
        ["symbol", "equal"],
        ["total_supply_grouped", "equal"],
        ["total_supply_raw", "equal"],
      ]);
      const payload = JSON.parse(reads[chain].signed_payload_canonical) as InstantReadPayload;
      expect(result.rederivation.block).toEqual({ number: payload.block_number, hash: payload.block_hash });
      const client = createPublicClient({ transport: http(rpcOf[chain]) }) as PublicClient;
      const at = { address: tokens[chain], abi: erc20, blockNumber: BigInt(payload.block_number) } as const;
      const supply = await client.readContract({ ...at, functionName: "totalSupply" });
      expect(rowOf(result, "total_supply_raw").rederived).toBe(supply.toString());
      expect(rowOf(result, "symbol").rederived).toBe(await client.readContract({ ...at, functionName: "symbol" }));
      expect(checkOf(result, "token copies").ok).toBe(true);
      const file = join(dir, `instant-read-${chain}.json`);
      writeFileSync(file, JSON.stringify(reads[chain]));
      const text = await runVerify([file, "--binding", binding, "--operator", operator, "--rpc", rpcOf[chain]]);
      console.log(`[instant-read ${chain}] ${text.output.split("\n").find((l) => l.startsWith("figures:"))}`);
    });
  }

  it("the other chain's RPC is refused with exit 2 naming --rpc, before any figure", async () => {
    for (const [chain, other, wanted] of [
      ["ethereum", s.rpcUrl, "an Ethereum RPC"],
      ["base", ethereumRpc, "a Base RPC"],
    ] as const) {
      const file = join(dir, `wrong-chain-${chain}.json`);
      writeFileSync(file, JSON.stringify(reads[chain]));
      const { exitCode, output } = await runVerify([
        file,
        "--binding",
        binding,
        "--operator",
        operator,
        "--rpc",
        other,
      ]);
      expect(exitCode, chain).toBe(2);
      expect(output).toContain(`the instant read is of ${chain}`);
      expect(output).toContain(`pass ${wanted} as --rpc`);
    }
  });

  it("a re-signed copy with a raised total supply fails naming it", async () => {
    const key = privateKeyToAccount("0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d");
    const payload = JSON.parse(reads.base.signed_payload_canonical) as InstantReadPayload;
    const raised = { ...payload, total_supply_raw: (BigInt(payload.total_supply_raw) + 10n ** 12n).toString() };
    const signed = await signPayload(key, raised);
    expect(signed.signed_payload_canonical).toBe(canonicalJson(raised));
    const { exitCode, result } = await verify({ ...reads.base, ...signed }, [
      "--signer",
      key.address,
      "--rpc",
      s.rpcUrl,
      "--network",
      network,
    ]);
    expect(result.checks.find((c: any) => c.name === "signature").ok).toBe(true);
    expect(exitCode).toBe(1);
    expect(differing(result)).toEqual(["total_supply_raw"]);
    expect(rowOf(result, "total_supply_raw")).toMatchObject({ published: raised.total_supply_raw, equal: false });
  });

  it("costs five RPC calls: the chain id, the block by hash, and three token reads", async () => {
    const { doc, name } = await loadNetworkDocument(network);
    const rpc = counting(ethereumRpc);
    const payload = JSON.parse(reads.ethereum.signed_payload_canonical);
    const r = await rederiveInstantRead(payload, reads.ethereum, {
      rpc: rpc.transport,
      network: networkOf(doc, s.rpcUrl),
      networkName: name,
    });
    expect(r.rows.filter((x) => x.kind === "differs")).toEqual([]);
    console.log(`[instant-read] ${rpc.total()} RPC calls: ${JSON.stringify(rpc.calls)}`);
    expect(rpc.calls).toEqual({ eth_chainId: 1, eth_getBlockByHash: 1, eth_call: 3 });
  });
});
