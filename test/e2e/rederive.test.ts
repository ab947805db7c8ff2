/**
 * A reader checks the live statement's numbers, not only its signer (issue 39), with
 * `kusd-verify --rpc` against the devnet: (a) every figure of the live statement re-derives equal
 * from the chain, and the figures agree with direct chain reads; (b) a statement re-signed with
 * the authorised key after one figure was raised still verifies its signature and fails
 * re-derivation naming that figure; (c) an RPC that colludes (it lies about the same storage value
 * in eth_call and in eth_getProof) confirms a raised statement without --proofs and is refused
 * with --proofs, naming the account and the slot; (d) a statement of a block a reorg removed is
 * refused by its block hash. With --proofs every read is executed over state proven against the
 * block hash: (e) the live statement and /api/por verify with every read proven and none taken on
 * the RPC's word; (f) an RPC whose eth_call answers differ from its own proofs is refused, naming
 * the read and both values.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { STATEMENT_COPIES, signPayload, withSignedCopies } from "@kusd/core";
import { encodeAbiParameters, erc20Abi, formatUnits, getAddress, type Hex, keccak256, parseUnits } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { loadArtifact } from "../../devnet/artifacts.js";
import { networkFileOf } from "../../devnet/network-document.js";
import { runVerify } from "../../packages/verify/src/node.js";
import { startLyingRpc } from "../helpers/lying-rpc.js";
import { stack } from "../helpers/stack.js";

const s = stack();
const d = s.deployment;
const network = networkFileOf(inject("deploymentFile"));
const attestationKey = privateKeyToAccount(d.accounts.attestationSigner!.privateKey);
const dir = mkdtempSync(join(tmpdir(), "kusd-rederive-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let live: { text: string; payload: any };
let bindingFile: string;
beforeAll(async () => {
  await s.statementPublished();
  const text = await (await fetch(`${s.indexerUrl}/api/por/signed`)).text();
  live = { text, payload: JSON.parse(JSON.parse(text).signed_payload_canonical) };
  bindingFile = join(dir, "binding.json");
  writeFileSync(bindingFile, await (await fetch(`${s.indexerUrl}/api/por/signer-registry`)).text());
});

/** Signs `payload` with the devnet's attestation key, as the service publishes a statement. */
async function resigned(payload: Record<string, unknown>, name: string): Promise<string> {
  const signed = await signPayload(attestationKey, payload as Record<string, unknown> & { timestamp: number });
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(withSignedCopies(signed, STATEMENT_COPIES)));
  return file;
}

async function verify(file: string, rpc: string, ...extra: string[]) {
  const argv = [file, "--binding", bindingFile, "--operator", d.signers.operator, "--no-freshness", "--rpc", rpc];
  const { exitCode, output } = await runVerify([...argv, "--network", network, "--json", ...extra]);
  return { exitCode, result: JSON.parse(output) };
}

const rowOf = (result: any, figure: string) => result.figures.find((f: any) => f.figure === figure);
const USDC = getAddress(s.addr("usdc"));
const psmMint = getAddress(s.addr("psmMint"));

describe("kusd-verify --rpc re-derives every signed figure from the reader's own RPC", () => {
  it("(a) the live statement: every chain figure equal, venue figures shown as recorded, figures equal direct reads", async () => {
    const file = join(dir, "live.json");
    writeFileSync(file, live.text);
    const { exitCode, result } = await verify(file, s.rpcUrl);
    // Other statements this test stack signed on demand in the same hour are rewrites of it
    // (test/e2e/anchor.test.ts makes one on purpose): every other check passes.
    const failed = result.checks.filter((c: any) => !c.ok).map((c: any) => c.name);
    expect(failed.filter((n: string) => n !== "one statement this hour")).toEqual([]);
    expect(exitCode).toBe(failed.length === 0 ? 0 : 1);
    expect(result.figures.length).toBeGreaterThan(30);
    // Chain figures equal; those resting on the venue equity recorded at signing bracketed in the
    // venue's account value history around the time it answered.
    for (const f of result.figures) expect([f.figure, f.kind]).toEqual([f.figure, f.equal ? "equal" : "bracketed"]);
    // A statement signed while the venue could not be read records no equity: its figures count
    // none of the mirror, which re-derives from the chain alone.
    expect(rowOf(result, "offchain.equity_usd")).toMatchObject(
      live.payload.offchain.equity_usd === null ? { kind: "equal" } : { kind: "bracketed", equal: null },
    );
    // Independently of the verifier: the PSM's USDC and kUSD's supply read straight from the chain.
    const at = { blockNumber: BigInt(live.payload.report_block) };
    const usdc = await s.client.readContract({
      address: USDC,
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [psmMint],
      ...at,
    });
    const supply = await s.client.readContract({
      address: s.addr("kUSD"),
      abi: erc20Abi,
      functionName: "totalSupply",
      ...at,
    });
    expect(rowOf(result, "psm_reserves_usdc.psmMint").rederived).toBe(Number(formatUnits(usdc, 6)));
    expect(rowOf(result, "kusd_total_supply").rederived).toBe(Number(formatUnits(supply, 18)));
  });

  it("(b) one figure raised and re-signed with the authorised key: the signature verifies, the figure does not", async () => {
    const raised = live.payload.psm_reserves_usdc.psmMint + 1_000;
    const file = await resigned(
      { ...live.payload, psm_reserves_usdc: { ...live.payload.psm_reserves_usdc, psmMint: raised } },
      "raised.json",
    );
    const { exitCode, result } = await verify(file, s.rpcUrl);
    expect(exitCode).toBe(1);
    expect(result.checks.find((c: any) => c.name === "signature").ok).toBe(true);
    expect(result.checks.find((c: any) => c.name === "authorised signer").ok).toBe(true);
    const figures = result.checks.find((c: any) => c.name === "figures");
    expect(figures.ok).toBe(false);
    expect(figures.detail).toMatch(/^1 of \d+ re-derived figures differ: psm_reserves_usdc\.psmMint$/);
    expect(rowOf(result, "psm_reserves_usdc.psmMint")).toMatchObject({
      published: raised,
      rederived: live.payload.psm_reserves_usdc.psmMint,
      equal: false,
    });
  });

  describe("(c) an RPC that lies about the same storage value in eth_call and in eth_getProof", () => {
    // The balance's slot, from the devnet build's storage layout of its USDC (an independent source).
    const balances = loadArtifact("FiatTokenV2").storage.find((v) => v.label === "_balances")!.slot;
    const slot = keccak256(
      encodeAbiParameters([{ type: "address" }, { type: "uint256" }], [psmMint, BigInt(balances)]),
    );
    let lying: Awaited<ReturnType<typeof startLyingRpc>>;
    let colluded: string;
    beforeAll(async () => {
      const real = await s.client.readContract({
        address: USDC,
        abi: erc20Abi,
        functionName: "balanceOf",
        args: [psmMint],
        blockNumber: BigInt(live.payload.report_block),
      });
      lying = await startLyingRpc(s.rpcUrl, {
        token: USDC,
        holder: psmMint,
        slot,
        value: real + parseUnits("250000", 6),
      });
      // The operator's statement as that RPC has it: every figure consistent with the raised reserve.
      const { rederiveStatement, networkOf } = await import("../../packages/verify/src/index.js");
      const { readFileSync } = await import("node:fs");
      const view = await rederiveStatement(live.payload, {
        rpc: lying.url,
        network: networkOf(JSON.parse(readFileSync(network, "utf8")), lying.url),
      });
      expect(view.rederived.psm_reserves_usdc.psmMint).toBe(live.payload.psm_reserves_usdc.psmMint + 250_000);
      colluded = await resigned({ ...view.rederived, timestamp: live.payload.timestamp }, "colluded.json");
    });
    afterAll(() => lying?.stop());

    it("without --proofs it confirms the raised statement: every figure 'equal'", async () => {
      const { exitCode, result } = await verify(colluded, lying.url);
      console.log(
        `lying RPC, no proofs: exit ${exitCode}, ${result.checks.find((c: any) => c.name === "figures").detail}`,
      );
      expect(exitCode).toBe(0);
      expect(rowOf(result, "psm_reserves_usdc.psmMint").equal).toBe(true);
    });

    it("with --proofs it is refused, naming USDC's account and the balance's slot", async () => {
      const { exitCode, result } = await verify(colluded, lying.url, "--proofs", "--header-rpc", s.rpcUrl);
      const proofs = result.checks.find((c: any) => c.name === "proofs");
      console.log(`lying RPC, --proofs: exit ${exitCode}, ${proofs.detail}`);
      expect(exitCode).toBe(1);
      expect(proofs.ok).toBe(false);
      expect(proofs.detail).toContain(`account ${USDC}`);
      expect(proofs.detail.toLowerCase()).toContain(`slot ${slot.toLowerCase()}`);
      expect(rowOf(result, "psm_reserves_usdc.psmMint").proof).toBe("failed");
      // The honest RPC proves the same figures: the refusal is the lie's, not the proofs'.
      const honest = await verify(colluded, s.rpcUrl, "--proofs", "--header-rpc", s.rpcUrl);
      expect(honest.result.checks.find((c: any) => c.name === "proofs").ok).toBe(true);
      expect(rowOf(honest.result, "psm_reserves_usdc.psmMint").equal).toBe(false);
    });
  });

  it("(e) --proofs: the live statement and /api/por verify with every read executed over proven state", async () => {
    const file = join(dir, "live-proofs.json");
    writeFileSync(file, live.text);
    const started = performance.now();
    const { result } = await verify(file, s.rpcUrl, "--proofs", "--header-rpc", s.rpcUrl);
    const ms = Math.round(performance.now() - started);
    const proofs = result.checks.find((c: any) => c.name === "proofs");
    const statuses = result.proofs.reads.map((r: any) => r.status);
    console.log(`live statement, --proofs: ${ms} ms; ${proofs.detail}`);
    expect(proofs.ok).toBe(true);
    expect(statuses.filter((x: string) => x !== "proven")).toEqual([]);
    expect(statuses.length).toBeGreaterThan(100);
    expect(result.figures.filter((f: any) => f.proof !== "proven").map((f: any) => f.figure)).toEqual([]);
    // The reads no storage layout ever covered are among them: the ETH/USD feed, decimals, the Safe.
    const reads = result.proofs.reads.map((r: any) => r.read).join("\n");
    expect(reads).toMatch(/latestRoundData\(\)/);
    expect(reads).toMatch(/decimals\(\)/);

    const report = join(dir, "por.json");
    writeFileSync(report, await (await fetch(`${s.indexerUrl}/api/por`)).text());
    const r = await runVerify([
      report,
      "--report",
      "--rpc",
      s.rpcUrl,
      "--network",
      network,
      "--proofs",
      "--header-rpc",
      s.rpcUrl,
      "--json",
    ]);
    const por = JSON.parse(r.output);
    const porProofs = por.checks.find((c: any) => c.name === "proofs");
    console.log(`/api/por --report --proofs: exit ${r.exitCode}; ${porProofs.detail}`);
    expect(porProofs.ok).toBe(true);
    expect(por.proofs.reads.filter((x: any) => x.status !== "proven")).toEqual([]);
    // Only the redemption precedent, rebuilt from the logs, rests on what no state proof covers.
    const notProven = por.figures.filter((f: any) => f.proof !== "proven");
    expect(notProven.filter((f: any) => f.proof !== "unproven")).toEqual([]);
    expect(notProven.filter((f: any) => !f.figure.startsWith("redemptionDepth.precedent."))).toEqual([]);
    expect(por.figures.filter((f: any) => f.proof === "proven").length).toBeGreaterThan(400);
  });

  it("(f) an RPC whose eth_call answers differ from its own proofs is refused, naming the read and both values", async () => {
    const at = BigInt(live.payload.report_block);
    const real = await s.client.readContract({
      address: USDC,
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [psmMint],
      blockNumber: at,
    });
    const raised = real + parseUnits("250000", 6);
    const lying = await startLyingRpc(s.rpcUrl, {
      token: USDC,
      holder: psmMint,
      slot: "0x00",
      value: raised,
      inProofs: false,
    });
    try {
      const file = await resigned(
        {
          ...live.payload,
          psm_reserves_usdc: {
            ...live.payload.psm_reserves_usdc,
            psmMint: live.payload.psm_reserves_usdc.psmMint + 250_000,
          },
        },
        "eth-call-only.json",
      );
      // Without proofs its eth_call confirms the raised reserve.
      const plain = await verify(file, lying.url);
      expect(rowOf(plain.result, "psm_reserves_usdc.psmMint").equal).toBe(true);
      const { exitCode, result } = await verify(file, lying.url, "--proofs", "--header-rpc", s.rpcUrl);
      const proofs = result.checks.find((c: any) => c.name === "proofs");
      console.log(`eth_call lies, proofs honest: exit ${exitCode}, ${proofs.detail}`);
      expect(exitCode).toBe(1);
      expect(proofs.ok).toBe(false);
      expect(proofs.detail).toContain(
        `balanceOf(address)(uint256) [${psmMint}] on ${USDC}: eth_call answered "${raised}"; executed over proven state it returns "${real}"`,
      );
      expect(rowOf(result, "psm_reserves_usdc.psmMint")).toMatchObject({
        proof: "failed",
        restsOn: [expect.stringContaining("balanceOf")],
      });
    } finally {
      await lying.stop();
    }
  });

  it("(d) a statement of a block a reorg removed is refused by its block hash", async () => {
    const snapshot = (await s.client.request({ method: "evm_snapshot" as never })) as Hex;
    await s.client.request({ method: "evm_mine" as never });
    const gone = await s.client.getBlock();
    await s.client.request({ method: "evm_revert" as never, params: [snapshot] as never });
    // A longer branch without that block: the same height now has another hash.
    await s.client.request({ method: "evm_mine" as never });
    await s.client.request({ method: "evm_mine" as never });
    const file = await resigned(
      { ...live.payload, report_block: Number(gone.number), report_block_hash: gone.hash },
      "reorged.json",
    );
    const { exitCode, result } = await verify(file, s.rpcUrl);
    expect(exitCode).toBe(1);
    expect(result.checks.find((c: any) => c.name === "block")).toMatchObject({
      ok: false,
      detail: expect.stringContaining("is not on this RPC's chain"),
    });
  });
});
