/**
 * The honesty board with a peer on Ethereum, re-derived by a reader who brings an Ethereum RPC as
 * well (`kusd-verify --report … --ethereum-rpc`): the board's Ethereum head is pinned by its hash
 * on that RPC and each window's start found again there. Without it the peer is said to be unread
 * (the check fails); with a Base RPC in its place the verifier stops, naming the flag.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readServiceEnv } from "@kusd/config";
import { selectNetwork } from "@kusd/config/node";
import type { BoardVault } from "@kusd/core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createReportContext } from "../../api/context.js";
import { yieldRoutes } from "../../api/yield/routes.js";
import { networkFileOf } from "../../devnet/network-document.js";
import { runVerify } from "../../packages/verify/src/node.js";
import { stack } from "../helpers/stack.js";

const s = stack();
const d = s.deployment;
const ethereumRpc = d.chains.ethereum.rpcUrl;
const network = networkFileOf(inject("deploymentFile"));
const dir = mkdtempSync(join(tmpdir(), "kusd-rederive-honesty-eth-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// A peer on Ethereum: the devnet's DAI, which answers no convertToAssets (its figures are unknown, on both sides).
const peer: BoardVault = {
  name: "DAI on Ethereum",
  chain: "ethereum",
  address: d.chains.ethereum.contracts.DAI!.address,
  shareDecimals: 18,
  assetDecimals: 18,
  advertised: 0.05,
};

let file: string;
beforeAll(async () => {
  await s.caughtUp();
  // The board's own routes in process, with the peer configured (the shared stack has none); no database is read.
  const ctx = createReportContext(selectNetwork(readServiceEnv(process.env)), undefined as never, "http://site.test");
  const app = yieldRoutes(
    ctx,
    { operator: null, attestation: null, attestationFrom: 0 },
    { marketPeers: [], honestyPeers: [peer] },
  );
  const res = await app.request("/api/honesty-index");
  expect(res.status).toBe(200);
  file = join(dir, "board.json");
  writeFileSync(file, await res.text());
});

const verify = async (...extra: string[]) => {
  const { exitCode, output } = await runVerify([
    file,
    "--report",
    "--rpc",
    s.rpcUrl,
    "--network",
    network,
    "--json",
    ...extra,
  ]);
  return { exitCode, result: JSON.parse(output) };
};

describe("kusd-verify --report on a board with a peer on Ethereum", () => {
  it("with --ethereum-rpc: the Ethereum head by its hash, its windows found again, no figure differing", async () => {
    const { exitCode, result } = await verify("--ethereum-rpc", ethereumRpc);
    expect(result.figures.filter((f: any) => f.kind === "differs")).toEqual([]);
    expect(result.checks.find((c: any) => c.name === "ethereum window blocks")).toMatchObject({ ok: true });
    expect(exitCode).toBe(0);
    // The peer's configured figures are the service's declaration.
    const board = JSON.parse((await import("node:fs")).readFileSync(file, "utf8"));
    const i = board.vaults.findIndex((v: any) => v.name === peer.name);
    expect(result.figures.find((f: any) => f.figure === `vaults[${i}].address`)).toMatchObject({ kind: "declared" });
    // Independently: the Ethereum head the board pins is that chain's block by number.
    const head = board.pins.ethereumBlock;
    const direct = (await (
      await fetch(ethereumRpc, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "eth_getBlockByNumber",
          params: [`0x${head.number.toString(16)}`, false],
        }),
      })
    ).json()) as { result: { hash: string } };
    expect(direct.result.hash).toBe(head.hash);
  });

  it("without an Ethereum RPC the peer is not read, and the check says so", async () => {
    const { exitCode, result } = await verify();
    expect(exitCode).toBe(1);
    expect(result.checks.find((c: any) => c.name === "ethereum vaults")).toMatchObject({ ok: false });
  });

  it("a Base RPC given as --ethereum-rpc stops the verifier, naming the flag", async () => {
    const { exitCode, result } = await verify("--ethereum-rpc", s.rpcUrl);
    expect(exitCode).toBe(2);
    expect(result.error.message).toMatch(/--ethereum-rpc/);
  });
});
