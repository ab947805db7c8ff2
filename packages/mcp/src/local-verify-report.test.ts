/**
 * verify_report with l1Rpc on the agent's machine: the agent's sources reach `kusd-verify --report`
 * as its options (--l1-rpc, --l1-block-hash), the report as read here, and its exit code and JSON
 * come back as the tool's verdict, pending apart from not verified, with what Ethereum said. The
 * verifier's own steps (the games, the proofs) are tested in packages/verify and
 * test/e2e/verify-l1.test.ts.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { pendingAnchoring } from "./anchoring.test-support.js";
import { localReportVerifier } from "./local-verify-report.js";

const API = "http://127.0.0.1:42069";
const RPC = "http://127.0.0.1:8545";
const L1 = "http://127.0.0.1:8546";
const block = { number: 1188, hash: `0x${"34".repeat(32)}` };
const report = { pins: { report: "stats", block }, psmUSDC: 1 };
const row = { figure: "psmUSDC", published: 1, rederived: 1, equal: true, kind: "equal", proof: "proven" };
const checks = [
  { name: "ethereum", ok: false, detail: `PENDING: ${pendingAnchoring.detail}` },
  { name: "figures", ok: true, detail: "1 figures: 1 equal, 0 differs" },
];

/** What kusd-verify --report --l1-rpc --json prints for a block no posted root covers yet (exit 3). */
const pendingJson = {
  verified: false,
  report: "stats",
  checks,
  recovered: null,
  signedAt: null,
  rederivation: { rpc: RPC, network: "Base (shipped)", block, failedReads: [] },
  figures: [row],
  proofs: { reads: [] },
  ethereum: pendingAnchoring,
  payload: null,
};

function verifier(exitCode: number, json: unknown) {
  const fetched: string[] = [];
  const runs: { argv: string[]; report: string }[] = [];
  const run = localReportVerifier(API, null, {
    fetch: async (url) => {
      fetched.push(String(url));
      return new Response(JSON.stringify(report), { status: 200 });
    },
    runVerify: async (argv, io) => {
      runs.push({ argv, report: await io!.readFile!("report.json") });
      return { exitCode: exitCode as 0, output: JSON.stringify(json) };
    },
  });
  return { run, fetched, runs };
}

const textOf = (r: CallToolResult) => r.content.map((c) => (c as { text: string }).text).join("\n");

describe("verify_report with l1Rpc", () => {
  it("runs kusd-verify --report with the RPC, the venue, --l1-rpc and --l1-block-hash over the report as read", async () => {
    const { run, fetched, runs } = verifier(3, pendingJson);
    const hash = `0x${"AB".repeat(32)}`;
    await run({
      path: "/api/stats?block=1188",
      rpc: RPC,
      venue: "http://127.0.0.1:8547/info",
      l1Rpc: L1,
      l1BlockHash: hash,
    });
    expect(fetched).toEqual([`${API}/api/stats?block=1188`]);
    expect(JSON.parse(runs[0]!.report)).toEqual(report);
    expect(runs[0]!.argv).toEqual([
      "report.json",
      "--report",
      "--rpc",
      RPC,
      "--venue",
      "http://127.0.0.1:8547/info",
      "--l1-rpc",
      L1,
      "--l1-block-hash",
      hash.toLowerCase(),
      "--json",
    ]);
  });

  it("answers pending (exit 3), with what Ethereum said, the figures and their summary", async () => {
    const { run, fetched } = verifier(3, pendingJson);
    const r = await run({ report, rpc: RPC, l1Rpc: L1 });
    expect(fetched).toEqual([]); // the report given is the one checked
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toEqual({
      verified: false,
      report: "stats",
      block,
      summary: "1 figures: 1 equal, 0 differs",
      checks,
      figures: [row],
      status: "pending",
      ethereum: pendingAnchoring,
    });
    expect(textOf(r)).toMatch(/^FAIL ethereum: PENDING: Base block 1188 .*\nok {3}figures: .*\nPENDING$/s);
  });

  it("answers verified (exit 0) and not verified (exit 1) as kusd-verify says", async () => {
    const proven = { ...pendingAnchoring, status: "proven", blockHash: block.hash };
    const ok = await verifier(0, { ...pendingJson, verified: true, ethereum: proven }).run({
      report,
      rpc: RPC,
      l1Rpc: L1,
    });
    expect(ok.structuredContent).toMatchObject({ verified: true, status: "verified", ethereum: { status: "proven" } });
    const failed = { ...pendingAnchoring, status: "failed", detail: "no root posted on L1 commits to Base block 1188" };
    const bad = await verifier(1, { ...pendingJson, ethereum: failed }).run({ report, rpc: RPC, l1Rpc: L1 });
    expect(bad.structuredContent).toMatchObject({
      verified: false,
      status: "not verified",
      ethereum: { status: "failed" },
    });
  });

  it("refuses, naming why, when kusd-verify judged nothing (exit 2: l1Rpc did not answer)", async () => {
    const message = "the L1 RPC gave no header: HTTP request failed.";
    const r = await verifier(2, { verified: false, error: { type: "SourceError", message } }).run({
      report,
      rpc: RPC,
      l1Rpc: L1,
    });
    expect(r.structuredContent).toMatchObject({
      verified: false,
      status: "not verified",
      summary: message,
      figures: [],
    });
    expect((r.structuredContent as Record<string, unknown>).ethereum).toBeUndefined();
  });
});
