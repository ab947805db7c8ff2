/**
 * `kusd-verify --report` on the four reports made of chain reads at one block (issue 57):
 * /api/stats, /api/psm-status, /api/euler and /api/por/redemption-plan, each re-derived from the
 * devnet's RPC alone (pinned by the block's hash). The live report at the head and one at a past
 * block re-derive with every figure equal (none is declared or rests on the venue: every one is a
 * read at the block or arithmetic on reads); a copy with one figure changed fails naming it; a
 * figure of each is checked against a read made here; and the RPC calls each re-derivation makes
 * are counted. Pinning costs the service no call: the block's header is the indexer's own.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type Address,
  type EIP1193RequestFn,
  erc20Abi,
  formatUnits,
  getAddress,
  http,
  parseAbiItem,
  type Transport,
} from "viem";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { networkFileOf } from "../../devnet/network-document.js";
import type { RpcProxyStats } from "../../devnet/rpc-proxy.js";
import {
  kindSummary,
  loadNetworkDocument,
  networkOf,
  rederiveReport,
  runVerify,
} from "../../packages/verify/src/node.js";
import { stack } from "../helpers/stack.js";

const s = stack();
const d = s.deployment;
const network = networkFileOf(inject("deploymentFile"));
/** Last block of the scripted history: before any block a live test adds or reorgs. */
const PAST = d.chains.base.historyEndBlock;
const dir = mkdtempSync(join(tmpdir(), "kusd-rederive-chain-reports-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const USDC = getAddress(s.addr("usdc"));
const KUSD = getAddress(s.addr("kUSD"));
const units = (raw: bigint, decimals: number) => Number(formatUnits(raw, decimals));

async function verifyReport(report: unknown, name: string) {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(report));
  const { exitCode, output } = await runVerify([file, "--report", "--rpc", s.rpcUrl, "--network", network, "--json"]);
  return { exitCode, result: JSON.parse(output) };
}
const rowOf = (result: any, figure: string) => result.figures.find((f: any) => f.figure === figure);
const differing = (result: any) => result.figures.filter((f: any) => f.kind === "differs").map((f: any) => f.figure);
const kinds = (result: any) => [...new Set(result.figures.map((f: any) => f.kind))];
const get = async (path: string) => {
  const res = await fetch(`${s.indexerUrl}${path}`);
  const body = (await res.json()) as any;
  expect(res.status, JSON.stringify(body).slice(0, 300)).toBe(200);
  return body;
};

/** A view read here, at `block`, by its cast signature. */
function view<T>(address: Address, signature: string, args: unknown[], block: number): Promise<T> {
  const m = /^(\w+)\(([^()]*)\)\((.*)\)$/.exec(signature)!;
  return s.client.readContract({
    address,
    abi: [parseAbiItem(`function ${m[1]}(${m[2]}) view returns (${m[3]})`)],
    functionName: m[1]!,
    args,
    blockNumber: BigInt(block),
  } as never) as Promise<T>;
}
const usdcOf = (holder: Address, block: number) =>
  s.client.readContract({
    address: USDC,
    abi: erc20Abi,
    functionName: "balanceOf",
    args: [holder],
    blockNumber: BigInt(block),
  });

/** The live report: no figure differs, every one is equal (all chain reads), exit 0. */
async function expectAllEqual(report: any, name: string, kind: string) {
  const { exitCode, result } = await verifyReport(report, name);
  expect(differing(result)).toEqual([]);
  expect(kinds(result)).toEqual(["equal"]);
  expect(exitCode).toBe(0);
  expect(result.report).toBe(kind);
  expect(result.rederivation.block).toEqual({ number: report.pins.block.number, hash: report.pins.block.hash });
  return result;
}

/** A copy with `figure` changed: exit 1, that figure and only it differs. */
async function expectOnlyDiffers(report: any, name: string, figure: string, change: (r: any) => void) {
  const altered = structuredClone(report);
  change(altered);
  const { exitCode, result } = await verifyReport(altered, name);
  expect(exitCode).toBe(1);
  expect(differing(result)).toEqual([figure]);
  expect(rowOf(result, figure)).toMatchObject({ kind: "differs", equal: false });
}

/** The JSON-RPC calls one re-derivation makes, counted per method (each call inside a batch counts one). */
async function callsOf(report: unknown): Promise<{ total: number; byMethod: Record<string, number> }> {
  const byMethod: Record<string, number> = {};
  const plain = http(s.rpcUrl, { batch: { batchSize: 100 }, retryCount: 1 });
  const counted: Transport = (config) => {
    const t = plain(config);
    const request = (async (args: { method: string }) => {
      byMethod[args.method] = (byMethod[args.method] ?? 0) + 1;
      return t.request(args as never);
    }) as EIP1193RequestFn;
    // No URL: what the verifier learns about code presence is learnt again, as a fresh kusd-verify run does.
    return { ...t, request, value: { ...t.value, url: undefined } };
  };
  const { doc, name } = await loadNetworkDocument(network);
  const rederived = await rederiveReport(report, {
    rpc: counted,
    network: networkOf(doc, s.rpcUrl),
    networkName: name,
    venue: null,
    venueNowMaxAgeSeconds: 0,
    nowMs: Date.now(),
  });
  expect(rederived.rows.filter((r) => r.kind === "differs")).toEqual([]);
  return { total: Object.values(byMethod).reduce((a, b) => a + b, 0), byMethod };
}

const cost: Record<string, { total: number; byMethod: Record<string, number> }> = {};
afterAll(() => {
  console.log(
    `[rederive] RPC calls per re-derivation:\n${Object.entries(cost)
      .map(([k, c]) => `  ${k}: ${c.total} ${JSON.stringify(c.byMethod)}`)
      .join("\n")}`,
  );
});

describe("kusd-verify --report on /api/stats", () => {
  let head: any;
  beforeAll(async () => {
    head = await get("/api/stats");
  });

  it("the live report at the head: every figure equal; the live mint PSM's USDC and kUSD's supply as read here", async () => {
    const result = await expectAllEqual(head, "stats.json", "stats");
    const block = head.blockNumber;
    expect(rowOf(result, "psmUSDCMint")).toMatchObject({
      published: units(await usdcOf(s.addr("psmMint"), block), 6),
      kind: "equal",
    });
    const supply = await view<bigint>(KUSD, "totalSupply()(uint256)", [], block);
    expect(rowOf(result, "kusdSupplyWei")).toMatchObject({ published: supply.toString(), kind: "equal" });
    console.log(`[stats] block ${block}: figures: ${kindSummary(result.figures)}`);
    cost.stats = await callsOf(head);
  });

  it("a report at a past block re-derives at that block", async () => {
    const past = await get(`/api/stats?block=${PAST}`);
    const result = await expectAllEqual(past, "stats-past.json", "stats");
    expect(result.rederivation.block.number).toBe(PAST);
    expect(past.psmUSDCLegacy).toBe(units(await usdcOf(s.addr("psmRedeemReserve"), PAST), 6));
  });

  it("a copy with the live mint PSM's USDC raised fails naming it", async () => {
    await expectOnlyDiffers(head, "stats-altered.json", "psmUSDCMint", (r) => {
      r.psmUSDCMint += 1;
    });
  });
});

describe("kusd-verify --report on /api/psm-status", () => {
  let head: any;
  beforeAll(async () => {
    head = await get("/api/psm-status");
  });

  it("the live report at the head: every gate equal; the live mint PSM's USDC and cap as read here", async () => {
    const result = await expectAllEqual(head, "psm-status.json", "psm-status");
    const block = head.blockNumber;
    const psm = getAddress(s.addr("psmMint"));
    expect(getAddress(head.psms[0].address)).toBe(psm);
    expect(rowOf(result, "psms[0].gates.usdcBalance")).toMatchObject({
      published: units(await usdcOf(psm, block), 6),
      kind: "equal",
    });
    const cap = await view<bigint>(psm, "stableCaps(address)(uint256)", [USDC], block);
    expect(rowOf(result, "psms[0].gates.stableCaps")).toMatchObject({ published: units(cap, 6), kind: "equal" });
    console.log(`[psm-status] block ${block}: figures: ${kindSummary(result.figures)}`);
    cost["psm-status"] = await callsOf(head);
  });

  it("a report at a past block re-derives at that block", async () => {
    const past = await get(`/api/psm-status?block=${PAST}`);
    const result = await expectAllEqual(past, "psm-status-past.json", "psm-status");
    expect(result.rederivation.block.number).toBe(PAST);
  });

  it("a copy with the live mint PSM's cap raised fails naming it", async () => {
    await expectOnlyDiffers(head, "psm-status-altered.json", "psms[0].gates.stableCaps", (r) => {
      r.psms[0].gates.stableCaps += 1;
    });
  });
});

describe("kusd-verify --report on /api/euler", () => {
  const vault = getAddress(s.addr("lendingUSDC"));
  let head: any;
  beforeAll(async () => {
    head = await get("/api/euler");
  });

  it("the live report at the head: every figure equal; the vault's supply and borrows as read here", async () => {
    const result = await expectAllEqual(head, "euler.json", "lending-occupancy");
    const block = head.blockNumber;
    const supply = await view<bigint>(vault, "totalAssets()(uint256)", [], block);
    const borrows = await view<bigint>(vault, "totalBorrows()(uint256)", [], block);
    expect(supply).toBeGreaterThan(0n);
    expect(rowOf(result, "lendingVault.totalSupplyUSDCRaw")).toMatchObject({
      published: supply.toString(),
      kind: "equal",
    });
    // Utilization by hand from the two reads.
    expect(head.lendingVault.utilization).toBeCloseTo(Number(borrows) / Number(supply), 12);
    console.log(`[euler] block ${block}: figures: ${kindSummary(result.figures)}`);
    cost.euler = await callsOf(head);
  });

  it("a report at a past block re-derives at that block", async () => {
    const past = await get(`/api/euler?block=${PAST}`);
    const result = await expectAllEqual(past, "euler-past.json", "lending-occupancy");
    expect(result.rederivation.block.number).toBe(PAST);
  });

  it("a copy with the utilization changed fails naming it", async () => {
    await expectOnlyDiffers(head, "euler-altered.json", "lendingVault.utilization", (r) => {
      r.lendingVault.utilization += 0.01;
    });
  });
});

describe("kusd-verify --report on /api/por/redemption-plan", () => {
  let head: any;
  let amount: string;
  beforeAll(async () => {
    const { blockNumber } = await get("/api/stats");
    // More than the deepest PSM holds: a plan split across PSMs, one getFee per leg.
    const reserves = await Promise.all(
      (["psmMint", "psmRetiredMint", "psmRedeemReserve"] as const).map((k) => usdcOf(s.addr(k), blockNumber)),
    );
    const [deepest, second] = reserves.sort((a, b) => (a < b ? 1 : -1)).map((x) => units(x, 6));
    amount = String(Math.floor(deepest! + second! / 2));
    head = await get(`/api/por/redemption-plan?amount=${amount}`);
  });

  it("the live plan: every figure equal; each leg's fee the PSM's own getFee read here, its USDC out by hand", async () => {
    expect(head.transactions.length).toBeGreaterThan(1);
    const result = await expectAllEqual(head, "plan.json", "redemption-plan");
    // The amount is the request the plan answers, not a figure.
    expect(rowOf(result, "amountKUSD")).toBeUndefined();
    for (const [i, t] of head.transactions.entries()) {
      const kusdIn = BigInt(t.kusdInWei);
      const fee = (kusdIn * BigInt(t.feeBps)) / 10_000n;
      expect(t.usdcOut).toBe(units((kusdIn - fee) / 10n ** 12n, 6));
      // v3 and the live PSM quote the tier's fee on the size in USDC units; v1 the raw kUSD amount.
      const size = t.psmVersion === "v1" ? kusdIn : kusdIn / 10n ** 12n;
      const onChain = await view<bigint>(t.to, "getFee(address,uint256)(uint256)", [USDC, size], head.blockNumber);
      expect(onChain).toBe(t.psmVersion === "v1" ? fee : (size * BigInt(t.feeBps)) / 10_000n);
      expect(rowOf(result, `transactions[${i}].verifyFee`)).toMatchObject({ kind: "equal" });
    }
    expect(result.checks.find((c: any) => c.name === "getFee")).toMatchObject({ ok: true });
    console.log(`[redemption-plan] block ${head.blockNumber}: figures: ${kindSummary(result.figures)}`);
    cost["redemption-plan"] = await callsOf(head);
  });

  it("a plan at a past block re-derives at that block", async () => {
    const past = await get(`/api/por/redemption-plan?amount=1000&block=${PAST}`);
    const result = await expectAllEqual(past, "plan-past.json", "redemption-plan");
    expect(result.rederivation.block.number).toBe(PAST);
  });

  it("a copy with a leg's USDC out raised fails naming it", async () => {
    await expectOnlyDiffers(head, "plan-altered.json", "transactions[0].usdcOut", (r) => {
      r.transactions[0].usdcOut += 1;
    });
  });
});

describe("the pins cost the service no RPC call", () => {
  const proxyUrl = inject("rpcProxyUrl");
  const proxyStats = async () => (await (await fetch(`${proxyUrl}/__proxy/stats`)).json()) as RpcProxyStats;

  it("/api/euler and a redemption plan at a new block pin it with the header the indexer read (no eth_getBlockByNumber)", async () => {
    await s.client.request({ method: "evm_mine" as never });
    const block = await s.caughtUp();
    const before = await proxyStats();
    const euler = await get("/api/euler");
    const plan = await get("/api/por/redemption-plan?amount=1000");
    const after = await proxyStats();
    expect(euler.pins.block.number).toBe(block);
    expect(plan.pins.block.number).toBe(block);
    // The hash the chain has at that block, read here.
    expect(plan.pins.block.hash).toBe((await s.client.getBlock({ blockNumber: BigInt(block) })).hash);
    expect((after.byMethod.eth_getBlockByNumber ?? 0) - (before.byMethod.eth_getBlockByNumber ?? 0)).toBe(0);
  });
});
