/**
 * `kusd-verify --report` on the three reports the service folds from indexed history, re-derived
 * from the chain's logs and reads alone: /api/risk-status (role holders from RoleGranted /
 * RoleRevoked), /api/por/accounts/violations (every registry-account transfer folded by the
 * violation rule; a page is a window of the whole list) and /api/history (each point read at its
 * block, redemptions from the Swap logs). The live reports re-derive with no figure differing; a
 * copy with one figure changed, or one violation or redemption taken out, fails naming it; figures
 * are checked against chain reads and log queries made here. The reader's RPC calls are counted at
 * a proxy in front of the devnet's RPC.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Address, erc20Abi, formatUnits, getAddress, parseAbiItem } from "viem";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { networkFileOf } from "../../devnet/network-document.js";
import { kindSummary, runVerify } from "../../packages/verify/src/node.js";
import { stack } from "../helpers/stack.js";

const s = stack();
const d = s.deployment;
const venueUrl = `${d.venue.url}/info`;
const network = networkFileOf(inject("deploymentFile"));
const dir = mkdtempSync(join(tmpdir(), "kusd-rederive-indexed-"));

/** The devnet's RPC behind a proxy that counts each JSON-RPC call (each call of a batch counts one). */
let proxy: Server;
let proxyUrl: string;
const counted: Record<string, number> = {};
beforeAll(async () => {
  proxy = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString();
    const parsed = JSON.parse(body) as { method: string } | { method: string }[];
    for (const call of Array.isArray(parsed) ? parsed : [parsed])
      counted[call.method] = (counted[call.method] ?? 0) + 1;
    const answer = await fetch(s.rpcUrl, { method: "POST", headers: { "content-type": "application/json" }, body });
    res.writeHead(answer.status, { "content-type": "application/json" });
    res.end(await answer.text());
  });
  await new Promise<void>((r) => proxy.listen(0, "127.0.0.1", r));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => proxy.close(r));
  rmSync(dir, { recursive: true, force: true });
});

async function verifyReport(report: unknown, name: string) {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(report));
  for (const k of Object.keys(counted)) delete counted[k];
  const argv = [file, "--report", "--rpc", proxyUrl, "--network", network, "--venue", venueUrl, "--json"];
  const { exitCode, output } = await runVerify(argv);
  const calls = { ...counted };
  return { exitCode, result: JSON.parse(output), calls, total: Object.values(calls).reduce((a, b) => a + b, 0) };
}
const rowOf = (result: any, figure: string) => result.figures.find((f: any) => f.figure === figure);
const differing = (result: any) => result.figures.filter((f: any) => f.kind === "differs").map((f: any) => f.figure);
const get = async (path: string) => (await fetch(`${s.indexerUrl}${path}`)).json() as Promise<any>;
const summaryOf = (name: string, r: Awaited<ReturnType<typeof verifyReport>>) =>
  console.log(`[${name}] figures: ${kindSummary(r.result.figures)}; ${r.total} RPC calls ${JSON.stringify(r.calls)}`);

const TRANSFER = parseAbiItem("event Transfer(address indexed from, address indexed to, uint256 value)");
const SWAP = parseAbiItem(
  "event Swap(address indexed user, address indexed fromToken, address indexed toToken, uint256 amount, uint256 fee)",
);
const HAS_ROLE = parseAbiItem("function hasRole(bytes32 role, address account) view returns (bool)");

describe("kusd-verify --report on /api/risk-status", () => {
  let risk: any;
  beforeAll(async () => {
    await s.statementPublished();
    await s.caughtUp();
    risk = await get("/api/risk-status");
  });

  it("the live report: no figure differs; the venue triggers venue-now, the statement's age declared; role holders as hasRole says", async () => {
    const r = await verifyReport(risk, "risk.json");
    expect(differing(r.result)).toEqual([]);
    expect(r.exitCode).toBe(0);
    expect(r.result.report).toBe("risk-status");
    const off = (id: string) => risk.triggers.offChain.findIndex((t: any) => t.id === id);
    expect(rowOf(r.result, `triggers.offChain[${off("venue.equityUsd")}].value`)).toMatchObject({ kind: "venue-now" });
    expect(rowOf(r.result, `triggers.offChain[${off("venue.reachable")}].value`)).toMatchObject({ kind: "venue-now" });
    expect(rowOf(r.result, `triggers.offChain[${off("statement.ageSeconds")}].value`)).toMatchObject({
      kind: "declared",
    });
    // Independently: every holder of kUSD's MINTER_ROLE holds it at the block, and a getter reads the same.
    const block = BigInt(risk.blockNumber);
    const minters = risk.triggers.onChain.findIndex((t: any) => t.id === "kUSD.roles.MINTER_ROLE");
    const holders: string[] = risk.triggers.onChain[minters].value;
    expect(holders.length).toBeGreaterThan(0);
    const minterRole = await s.client.readContract({
      address: s.addr("kUSD"),
      abi: [parseAbiItem("function MINTER_ROLE() view returns (bytes32)")],
      functionName: "MINTER_ROLE",
    });
    for (const h of holders)
      expect(
        await s.client.readContract({
          address: s.addr("kUSD"),
          abi: [HAS_ROLE],
          functionName: "hasRole",
          args: [minterRole, h as Address],
          blockNumber: block,
        }),
      ).toBe(true);
    expect(rowOf(r.result, `triggers.onChain[${minters}].value[0]`)).toMatchObject({ kind: "equal" });
    const paused = risk.triggers.onChain.findIndex((t: any) => t.id === "psmMint.paused");
    const read = await s.client.readContract({
      address: s.addr("psmMint"),
      abi: [parseAbiItem("function paused() view returns (bool)")],
      functionName: "paused",
      blockNumber: block,
    });
    expect(risk.triggers.onChain[paused].value).toBe(read);
    expect(rowOf(r.result, `triggers.onChain[${paused}].value`)).toMatchObject({ kind: "equal", equal: true });
    summaryOf("risk-status", r);
  });

  it("a report at a past block re-derives there; its venue triggers are unjudged (null), as recorded", async () => {
    const past = await get(`/api/risk-status?block=${risk.blockNumber - 300}`);
    expect(past.pins.offChain.atHead).toBe(false);
    expect(past.pins.venue.requests).toEqual([]);
    const r = await verifyReport(past, "risk-past.json");
    expect(differing(r.result)).toEqual([]);
    expect(r.exitCode).toBe(0);
    expect(r.result.rederivation.block.number).toBe(risk.blockNumber - 300);
    const equity = past.triggers.offChain.findIndex((t: any) => t.id === "venue.equityUsd");
    expect(rowOf(r.result, `triggers.offChain[${equity}].value`)).toMatchObject({ published: null, kind: "venue-now" });
  });

  it("a copy with a threshold changed, or a minter left out, fails naming it", async () => {
    const altered = structuredClone(risk);
    const i = altered.triggers.onChain.findIndex((t: any) => t.kind === "threshold" && typeof t.value === "string");
    altered.triggers.onChain[i].value = String(BigInt(altered.triggers.onChain[i].value) + 1n);
    const m = altered.triggers.onChain.findIndex((t: any) => t.id === "kUSD.roles.MINTER_ROLE");
    altered.triggers.onChain[m].value = altered.triggers.onChain[m].value.slice(1);
    const r = await verifyReport(altered, "risk-altered.json");
    expect(r.exitCode).toBe(1);
    expect(differing(r.result)).toContain(`triggers.onChain[${i}].value`);
    expect(differing(r.result)).toContain(`triggers.onChain[${m}].value.length`);
    expect(r.result.checks.find((c: any) => c.name === "role holders").ok).toBe(false);
  });
});

describe("kusd-verify --report on /api/por/accounts/violations", () => {
  let page: any;
  beforeAll(async () => {
    page = await get("/api/por/accounts/violations?limit=1000");
  });

  it("the whole list re-derives from the logs; each violation is the Transfer log it names", async () => {
    expect(page.violations.length).toBeGreaterThan(0);
    const r = await verifyReport(page, "violations.json");
    expect(differing(r.result)).toEqual([]);
    expect(r.exitCode).toBe(0);
    // A list of the length the reader rebuilt adds no length row; every violation's figures are rows.
    expect(rowOf(r.result, "violations.length")).toBeUndefined();
    expect(rowOf(r.result, `violations[${page.violations.length - 1}].id`)).toMatchObject({ equal: true });
    // Independently: each violation's Transfer log, asked of the chain by its block and place.
    for (const v of page.violations.slice(0, 5)) {
      const logs = await s.client.getLogs({
        address: v.token,
        event: TRANSFER,
        args: { from: v.from, to: v.to },
        fromBlock: BigInt(v.blockNumber),
        toBlock: BigInt(v.blockNumber),
      });
      const log = logs.find((l) => l.logIndex === v.logIndex)!;
      expect(log.transactionHash).toBe(v.txHash);
      expect(log.args.value!.toString()).toBe(v.amountRaw);
      expect(getAddress(log.args.to!)).toBe(v.to);
    }
    summaryOf("violations", r);
  });

  it("a page is a window: the first and second pages of one re-derive; a page with a violation taken out fails naming it", async () => {
    const first = await get("/api/por/accounts/violations?limit=1");
    expect(first.next).toBe(first.violations[0].cursor);
    const second = await get(`/api/por/accounts/violations?limit=1&after=${first.next}`);
    expect(second.pins.window).toMatchObject({ after: first.next, limit: 1 });
    for (const [name, p] of [
      ["first", first],
      ["second", second],
    ] as const) {
      const ok = await verifyReport(p, `violations-${name}.json`);
      expect(differing(ok.result), name).toEqual([]);
      expect(ok.exitCode, name).toBe(0);
      expect(rowOf(ok.result, "next")).toMatchObject({ published: p.next, kind: "equal" });
    }
    const altered = structuredClone(page);
    const [gone] = altered.violations.splice(altered.violations.length - 1, 1);
    const r = await verifyReport(altered, "violations-altered.json");
    expect(r.exitCode).toBe(1);
    expect(differing(r.result)).toEqual(["violations.length"]);
    expect(r.result.checks.find((c: any) => c.name === "violations").detail).toContain(gone.id);
  });
});

describe("kusd-verify --report on /api/history", () => {
  let series: any;
  beforeAll(async () => {
    series = await get("/api/history?interval=DAY");
  });

  it("every point re-derives from reads at its block and the Swap logs; the last point and the redemptions as read here", async () => {
    const r = await verifyReport(series, "history.json");
    expect(differing(r.result)).toEqual([]);
    expect(r.exitCode).toBe(0);
    expect(rowOf(r.result, "points.length")).toBeUndefined();
    expect(rowOf(r.result, `points[${series.points.length - 1}].blockNumber`)).toMatchObject({ equal: true });
    // Independently: the last point's supply and the first PSM's USDC at its block.
    const last = series.points.at(-1);
    const at = BigInt(last.blockNumber);
    const supply = await s.client.readContract({
      address: s.addr("kUSD"),
      abi: erc20Abi,
      functionName: "totalSupply",
      blockNumber: at,
    });
    expect(last.kusdSupplyWei).toBe(supply.toString());
    const usdc = await s.client.readContract({
      address: s.addr("usdc"),
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [s.addr("psmMint")],
      blockNumber: at,
    });
    expect(last.psmUSDC.psmMint).toBe(Number(formatUnits(usdc, 6)));
    // Every redemption Swap up to the series' block falls in one point's window.
    const swaps = await s.client.getLogs({
      address: ["psmMint", "psmRetiredMint", "psmRedeemReserve"].map((k) => s.addr(k)),
      event: SWAP,
      args: { fromToken: s.addr("kUSD") },
      fromBlock: 0n,
      toBlock: BigInt(series.toBlock),
    });
    const inSeries = series.points.reduce((a: number, p: any) => a + p.redemptions.count, 0);
    expect(swaps.length).toBeGreaterThan(0);
    expect(inSeries).toBe(swaps.filter((l) => l.blockNumber! >= BigInt(series.fromBlock)).length);
    const busy = series.points.findIndex((p: any) => p.redemptions.count > 0);
    expect(rowOf(r.result, `points[${busy}].redemptions.count`)).toMatchObject({ kind: "equal" });
    console.log(
      `[history] ${series.points.length} points to block ${series.toBlock}; ${r.result.checks.find((c: any) => c.name === "history").detail}`,
    );
    summaryOf("history", r);
  });

  it("a copy with a redemption taken out, or a supply raised, fails naming each", async () => {
    const altered = structuredClone(series);
    const busy = altered.points.findIndex((p: any) => p.redemptions.count > 0);
    altered.points[busy].redemptions.count -= 1;
    const last = altered.points.length - 1;
    altered.points[last].kusdSupplyWei = (BigInt(altered.points[last].kusdSupplyWei) + 1n).toString();
    const r = await verifyReport(altered, "history-altered.json");
    expect(r.exitCode).toBe(1);
    expect(differing(r.result)).toEqual([`points[${busy}].redemptions.count`, `points[${last}].kusdSupplyWei`]);
  });

  it("every step blocks (BLOCKS) re-derives too", async () => {
    const to = Number(series.toBlock);
    const blocks = await get(`/api/history?interval=BLOCKS&fromBlock=${to - 600}&toBlock=${to}&step=50`);
    const r = await verifyReport(blocks, "history-blocks.json");
    expect(differing(r.result)).toEqual([]);
    expect(r.exitCode).toBe(0);
    summaryOf("history BLOCKS", r);
  });
});
