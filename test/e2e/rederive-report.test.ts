/**
 * `kusd-verify --report`: an unsigned /api/por report (at the head, or ?block=N) re-derived from
 * the reader's RPC, its redemption precedent rebuilt from the PSMs' logs (issue 39). The report as
 * served re-derives equal; one with a redemption taken out, or a figure raised, fails naming it.
 * The precedent's count is checked against the Swap logs read here directly.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getAddress, parseAbiItem } from "viem";
import { afterAll, describe, expect, inject, it } from "vitest";
import { networkFileOf } from "../../devnet/network-document.js";
import { runVerify } from "../../packages/verify/src/node.js";
import { stack } from "../helpers/stack.js";

const s = stack();
const network = networkFileOf(inject("deploymentFile"));
const dir = mkdtempSync(join(tmpdir(), "kusd-rederive-report-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function verifyReport(report: unknown, name: string) {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(report));
  const { exitCode, output } = await runVerify([file, "--report", "--rpc", s.rpcUrl, "--network", network, "--json"]);
  return { exitCode, result: JSON.parse(output) };
}
const row = (result: any, figure: string) => result.figures.find((f: any) => f.figure === figure);

describe("kusd-verify --report re-derives an unsigned /api/por report", () => {
  it("the report at the head: every chain figure and the precedent equal, the precedent as the Swap logs show", async () => {
    const report = await (await fetch(`${s.indexerUrl}/api/por`)).json();
    const { exitCode, result } = await verifyReport(report, "head.json");
    expect(result.checks ?? result.error).not.toContainEqual(expect.objectContaining({ ok: false }));
    const differ = result.figures.filter((f: any) => f.kind === "differs");
    expect(differ.map((f: any) => [f.figure, f.published, f.rederived, f.note])).toEqual([]);
    expect(exitCode).toBe(0);
    const precedent = result.figures.filter((f: any) => f.figure.startsWith("redemptionDepth.precedent."));
    expect(precedent.length).toBeGreaterThan(10);
    // Independently: the PSMs' Swap logs whose fromToken is kUSD, up to the report's block.
    const psms = report.redemptionDepth.byContract.map((b: { address: string }) => getAddress(b.address));
    expect(psms.length).toBe(3);
    const swaps = await s.client.getLogs({
      address: psms,
      event: parseAbiItem(
        "event Swap(address indexed user, address indexed fromToken, address indexed toToken, uint256 amount, uint256 fee)",
      ),
      args: { fromToken: getAddress(s.addr("kUSD")) },
      fromBlock: 0n,
      toBlock: BigInt(report.blockNumber),
    });
    expect(swaps.length).toBeGreaterThan(0);
    expect(row(result, "redemptionDepth.precedent.executedRedemptions")).toMatchObject({
      published: swaps.length,
      rederived: swaps.length,
      equal: true,
    });
    console.log(
      `[report] block ${report.blockNumber}: ${result.figures.length} figures, ${result.figures.filter((f: any) => f.equal === true).length} equal, ${result.figures.filter((f: any) => f.equal === null).length} on the venue reading; precedent: ${swaps.length} redemptions; ${result.checks.map((c: any) => `${c.name} ${c.ok ? "ok" : "FAIL"}`).join(", ")}`,
    );
  });

  it("a report with a redemption left out, or a raised figure, fails naming each figure", async () => {
    const report = await (await fetch(`${s.indexerUrl}/api/por`)).json();
    const altered = structuredClone(report);
    altered.redemptionDepth.precedent.transactions.pop();
    altered.redemptionDepth.precedent.executedRedemptions -= 1;
    altered.reserves.psm.usdcHeld += 1;
    const { exitCode, result } = await verifyReport(altered, "altered.json");
    expect(exitCode).toBe(1);
    const differ = result.figures.filter((f: any) => f.equal === false).map((f: any) => f.figure);
    expect(differ).toContain("redemptionDepth.precedent.executedRedemptions");
    expect(differ).toContain("reserves.psm.usdcHeld");
    expect(result.checks.find((c: any) => c.name === "precedent").ok).toBe(false);
  });

  it("a report at a past block (?block=N) re-derives at that block", async () => {
    const head = Number(await s.client.getBlockNumber({ cacheTime: 0 }));
    const past = await (await fetch(`${s.indexerUrl}/api/por?block=${head - 200}`)).json();
    const { exitCode, result } = await verifyReport(past, "past.json");
    const differ = result.figures.filter((f: any) => f.kind === "differs");
    expect(differ.map((f: any) => [f.figure, f.published, f.rederived, f.note])).toEqual([]);
    expect(exitCode).toBe(0);
    expect(result.rederivation.block.number).toBe(head - 200);
  });
});
