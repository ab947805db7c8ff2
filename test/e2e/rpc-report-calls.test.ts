/**
 * What each report costs in billed RPC calls at a new block, counted at the fault proxy the API's
 * chain reads go through (each call inside a JSON-RPC batch counts one, as providers bill them):
 * the block, the code checks, one Multicall3 aggregate3 per round of pinned reads, the live reads.
 * A read that fails inside the batch fails only its own figure, checked against direct reads.
 */
import { type Address, erc20Abi, formatUnits, keccak256, parseAbiItem, stringToHex, toFunctionSelector } from "viem";
import { beforeAll, describe, expect, inject, it } from "vitest";
import type { RpcProxyStats } from "../../devnet/rpc-proxy.js";
import { stack } from "../helpers/stack.js";

const s = stack();
const proxyUrl = inject("rpcProxyUrl");
const token = inject("adminToken");
const MAX_CALLS = 5;

const proxyStats = async () => (await (await fetch(`${proxyUrl}/__proxy/stats`)).json()) as RpcProxyStats;
const setFaults = (faults: unknown[]) =>
  fetch(`${proxyUrl}/__proxy/faults`, { method: "POST", body: JSON.stringify(faults) });

/** A block nobody has read yet: one mined and indexed now. */
async function newBlock(): Promise<number> {
  await s.client.request({ method: "evm_mine" as never });
  return s.caughtUp();
}

type Cost = { total: number; byMethod: Record<string, number> };

/** The calls the proxy forwarded while `request` ran (the API answers only after its reads). */
async function callsOf(request: () => Promise<Response>): Promise<Cost & { body: any }> {
  const before = await proxyStats();
  const res = await request();
  const text = await res.text();
  expect(res.status, text.slice(0, 300)).toBeLessThan(300);
  const after = await proxyStats();
  const byMethod: Record<string, number> = {};
  for (const [m, n] of Object.entries(after.byMethod)) {
    const d = n - (before.byMethod[m] ?? 0);
    if (d > 0) byMethod[m] = d;
  }
  return { total: after.forwarded - before.forwarded, byMethod, body: JSON.parse(text) };
}

const get = (path: string) => () => fetch(`${s.indexerUrl}${path}`);
const REPORTS: Record<string, () => Promise<Response>> = {
  "/api/por": get("/api/por"),
  "/api/stats": get("/api/stats"),
  "/api/psm-status": get("/api/psm-status"),
  "/api/risk-status": get("/api/risk-status"),
  "/api/apy": get("/api/apy"),
  "POST /api/por/signed": () =>
    fetch(`${s.indexerUrl}/api/por/signed`, { method: "POST", headers: { authorization: `Bearer ${token}` } }),
};

/**
 * A statement signed here is anchored on chain beside it (its EAS attestation mines a block):
 * wait for that block, so it does not land between a test's new block and its report.
 */
async function anchoredLatest() {
  const deadline = Date.now() + 30_000;
  while ((await (await fetch(`${s.indexerUrl}/api/por/signed`)).json()).anchor?.status !== "landed") {
    if (Date.now() > deadline) throw new Error("the latest statement was not anchored");
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  await setFaults([]);
  // Once per process: which contracts have code (Multicall3's included) is read once and kept.
  await newBlock();
  for (const request of Object.values(REPORTS)) await (await request()).arrayBuffer();
  await anchoredLatest();
});

describe("billed RPC calls per report at a new block", () => {
  it(`each report at a new block makes at most ${MAX_CALLS} calls`, async () => {
    const costs: Record<string, Cost> = {};
    for (const [name, request] of Object.entries(REPORTS)) {
      const block = await newBlock();
      const { total, byMethod, body } = await callsOf(request);
      if (name === "POST /api/por/signed") await anchoredLatest();
      costs[name] = { total, byMethod };
      if (name !== "/api/apy" && name !== "POST /api/por/signed") expect(body.blockNumber, name).toBe(block);
    }
    console.log(
      `[rpc] calls per report at a new block:\n${Object.entries(costs)
        .map(([name, c]) => `  ${name}: ${c.total} ${JSON.stringify(c.byMethod)}`)
        .join("\n")}`,
    );
    for (const [name, c] of Object.entries(costs)) expect(c.total, name).toBeLessThanOrEqual(MAX_CALLS);
    // The block's hash is the one the indexer in this process read (api/io/indexer-headers.ts).
    for (const [name, c] of Object.entries(costs)) expect(c.byMethod.eth_getBlockByNumber ?? 0, name).toBe(0);
  });
});

describe("the reserves page at a new block", () => {
  it("reads the block's gates and switches in /api/por's batch: psm-status and risk-status after it make no eth_call", async () => {
    const block = await newBlock();
    const por = await callsOf(get("/api/por"));
    expect(por.body.blockNumber).toBe(block);
    const after = await callsOf(() =>
      Promise.all([
        fetch(`${s.indexerUrl}/api/psm-status?block=${block}`),
        fetch(`${s.indexerUrl}/api/risk-status?block=${block}`),
      ]).then(async ([a, b]) => {
        expect(b.status).toBe(200);
        await b.arrayBuffer();
        return a;
      }),
    );
    console.log(
      `[rpc] page at a new block: /api/por ${JSON.stringify(por.byMethod)}, then the gates and switches ${JSON.stringify(after.byMethod)}`,
    );
    expect(por.total).toBeLessThanOrEqual(MAX_CALLS);
    expect(after.byMethod.eth_call ?? 0).toBe(0);
  });
});

describe("a read that fails inside the batch", () => {
  const MINTER_ROLE = keccak256(stringToHex("MINTER_ROLE"));
  /** A PSM's gates read directly from the chain, one eth_call each, in /api/psm-status's units. */
  async function directGates(psm: Address, block: number) {
    const usdc = s.addr("usdc");
    const at = { blockNumber: BigInt(block) };
    const view = <T>(address: Address, signature: string, args: unknown[] = []) => {
      const m = /^(\w+)\(([^()]*)\)\((.*)\)$/.exec(signature)!;
      return s.client.readContract({
        address,
        abi: [parseAbiItem(`function ${m[1]}(${m[2]}) view returns (${m[3]})`)],
        functionName: m[1]!,
        args,
        ...at,
      } as never) as Promise<T>;
    };
    const units = (raw: bigint) => Number(formatUnits(raw, 6));
    return {
      mintingEnabled: await view<boolean>(psm, "mintingEnabled()(bool)"),
      paused: await view<boolean>(psm, "paused()(bool)"),
      supportedStables: await view<boolean>(psm, "supportedStables(address)(bool)", [usdc]),
      stableCaps: units(await view<bigint>(psm, "stableCaps(address)(uint256)", [usdc])),
      currentExposure: units(await view<bigint>(psm, "currentExposure(address)(uint256)", [usdc])),
      usdcBalance: units(
        await s.client.readContract({ address: usdc, abi: erc20Abi, functionName: "balanceOf", args: [psm], ...at }),
      ),
      psmHasMinterRole: await view<boolean>(s.addr("kUSD"), "hasRole(bytes32,address)(bool)", [MINTER_ROLE, psm]),
    };
  }

  it("fails only its own figure: null, named in failedReads, every other gate equal to a direct read", async () => {
    const psmMint = s.addr("psmMint");
    const block = await newBlock();
    await setFaults([{ selector: toFunctionSelector("stableCaps(address)"), to: psmMint, mode: "error" }]);
    let cost: Awaited<ReturnType<typeof callsOf>>;
    try {
      cost = await callsOf(get("/api/psm-status"));
    } finally {
      await setFaults([]);
    }
    const body = cost.body;
    expect(body.blockNumber).toBe(block);
    // The failure cost nothing more: the same calls as any new block.
    expect(cost.total).toBeLessThanOrEqual(MAX_CALLS);
    expect(body.failedReads).toHaveLength(1);
    expect(body.failedReads[0].toLowerCase()).toContain(
      `stableCaps(address)(uint256) [${s.addr("usdc")}] on ${psmMint}`.toLowerCase(),
    );
    for (const p of body.psms) {
      const direct = await directGates(p.address, block);
      const shown = Object.fromEntries(Object.keys(direct).map((k) => [k, p.gates[k]]));
      if (p.key === "psmMint") {
        expect(shown.stableCaps).toBeNull();
        expect(p.gates.headroomUSDC).toBeNull(); // derived from the cap: unknown too
        expect(p.verifyVia.stableCaps).toBeUndefined();
        expect({ ...shown, stableCaps: undefined }).toEqual({ ...direct, stableCaps: undefined });
      } else expect(shown, p.key).toEqual(direct);
    }
  });
});

describe("GET /metrics counts the calls", () => {
  const scrape = async () => (await fetch(`${s.indexerUrl}/metrics`)).text();
  /** kusd_rpc_calls_total by method, over the purposes whose calls go through the proxy (not indexing). */
  const counted = (text: string) => {
    const byMethod: Record<string, number> = {};
    for (const m of text.matchAll(/^kusd_rpc_calls_total\{purpose="([^"]+)",method="([^"]+)"\} (\d+)$/gm)) {
      if (m[1] === "indexing") continue;
      byMethod[m[2]!] = (byMethod[m[2]!] ?? 0) + Number(m[3]);
    }
    return byMethod;
  };
  const minus = (a: Record<string, number>, b: Record<string, number>) =>
    Object.fromEntries(
      Object.keys({ ...a, ...b })
        .map((k) => [k, (a[k] ?? 0) - (b[k] ?? 0)] as const)
        .filter(([, v]) => v !== 0),
    );

  it("kusd_rpc_calls_total moves by exactly the calls the proxy forwarded around a report build", async () => {
    // Background work (the statement service's checks) may call between two reads: try again then.
    let last = "";
    for (let attempt = 0; attempt < 3; attempt++) {
      await newBlock();
      const block = (await newBlock()) - 1; // a block no report was built at (a scrape builds the head's)
      const m0 = counted(await scrape());
      const s0 = await proxyStats();
      const build = await callsOf(get(`/api/por?block=${block}`));
      const m1 = counted(await scrape());
      const s1 = await proxyStats();
      const proxied = minus(s1.byMethod, s0.byMethod);
      const metered = minus(m1, m0);
      last = JSON.stringify({ proxied, metered, build: build.byMethod });
      if (JSON.stringify(Object.entries(proxied).sort()) !== JSON.stringify(Object.entries(metered).sort())) continue;
      console.log(`[rpc] /metrics and the proxy agree: ${last}`);
      expect(build.total).toBeGreaterThan(0);
      expect(build.total).toBeLessThanOrEqual(MAX_CALLS);
      const text = await scrape();
      expect(text).toMatch(/^kusd_rpc_calls_total\{purpose="reports",method="eth_call"\} \d+$/m);
      expect(text).toMatch(/^kusd_rpc_calls_total\{purpose="live reads",method="eth_blockNumber"\} \d+$/m);
      // The indexer's own calls: Ponder's counts under "indexing", not counted twice.
      expect(text).toMatch(/^kusd_rpc_calls_total\{purpose="indexing",method="eth_getLogs"\} \d+$/m);
      expect(text).toMatch(/^kusd_rpc_http_requests_total\{purpose="reports"\} \d+$/m);
      return;
    }
    throw new Error(`the counter and the proxy disagreed three times: ${last}`);
  });
});
