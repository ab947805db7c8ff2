/**
 * Statements anchored on Base (issue 40), on the devnet's EAS (Base's predeploy addresses): the
 * live statement's anchor is on chain as published, read straight from EAS; kusd-verify --rpc
 * flags a statement signed with yesterday's date and anchored now as back-dated, a second
 * statement for an anchored hour as a rewrite, and one never anchored as unanchored; anchoring
 * keeps trying through a 30 s RPC outage and lands once; a restart after the transaction was sent
 * does not attest twice.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  ANCHOR_SCHEMA_UID,
  anchorData,
  anchorRecipient,
  decodeAnchorData,
  EAS_ADDRESS,
  easAbi,
  encodeAnchorData,
  STATEMENT_COPIES,
  signPayload,
  withSignedCopies,
} from "@kusd/core";
import { createWalletClient, getAddress, type Hex, http, zeroHash } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { AnchorService } from "../../api/statements/anchor-service.js";
import { openOperatorStore } from "../../api/store/operator-store.js";
import { networkFileOf } from "../../devnet/network-document.js";
import { startRpcProxy } from "../../devnet/rpc-proxy.js";
import { runVerify } from "../../packages/verify/src/node.js";
import { stack } from "../helpers/stack.js";

const s = stack();
const d = s.deployment;
const key = privateKeyToAccount(d.accounts.attestationSigner!.privateKey);
const dir = mkdtempSync(join(tmpdir(), "kusd-anchor-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let bindingFile: string;
let live: any;
beforeAll(async () => {
  await s.statementPublished();
  bindingFile = join(dir, "binding.json");
  writeFileSync(bindingFile, await (await fetch(`${s.indexerUrl}/api/por/signer-registry`)).text());
  // Published at once, anchored beside: wait for its anchor to land.
  const deadline = Date.now() + 60_000;
  for (;;) {
    live = await (await fetch(`${s.indexerUrl}/api/por/signed`)).json();
    if (live.anchor?.status === "landed") break;
    if (Date.now() > deadline) throw new Error(`the live statement was not anchored: ${JSON.stringify(live.anchor)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
});

const getAttestation = (uid: Hex) =>
  s.client.readContract({ address: EAS_ADDRESS, abi: easAbi, functionName: "getAttestation", args: [uid] });

/** What a dishonest operator can do with its own key: sign any payload, attest any hash now. */
async function signAndAnchor(payload: Record<string, any>, name: string, anchor = true) {
  const signed = await signPayload(key, payload as Record<string, unknown> & { timestamp: number });
  if (anchor) {
    const wallet = createWalletClient({ account: key, transport: http(s.rpcUrl) });
    const hash = await wallet.writeContract({
      chain: null,
      address: EAS_ADDRESS,
      abi: easAbi,
      functionName: "attest",
      args: [
        {
          schema: ANCHOR_SCHEMA_UID,
          data: {
            recipient: anchorRecipient(signed.attestation_hash),
            expirationTime: 0n,
            revocable: false,
            refUID: zeroHash,
            data: encodeAnchorData(anchorData(signed.attestation_hash, payload)),
            value: 0n,
          },
        },
      ],
    });
    await s.client.waitForTransactionReceipt({ hash });
  }
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(withSignedCopies(signed, STATEMENT_COPIES)));
  return { file, hash: signed.attestation_hash };
}

async function anchorVerdict(file: string) {
  const { exitCode, output } = await runVerify([
    file,
    "--binding",
    bindingFile,
    "--operator",
    d.signers.operator,
    "--no-freshness",
    "--rpc",
    s.rpcUrl,
    "--network",
    networkFileOf(inject("deploymentFile")),
    "--json",
  ]);
  const result = JSON.parse(output);
  const checks = Object.fromEntries(
    result.checks.filter((c: any) => /anchor|statement this hour/.test(c.name)).map((c: any) => [c.name, c]),
  );
  return { exitCode, checks };
}

describe("statements anchored on Base through EAS", () => {
  it("the live statement's anchor is on chain as published: by the attestation key, committing to its hash and time", async () => {
    const a = await getAttestation(live.anchor.uid);
    expect(getAddress(a.attester)).toBe(getAddress(d.signers.attestation));
    expect(a.schema).toBe(ANCHOR_SCHEMA_UID);
    const data = decodeAnchorData(a.data)!;
    const payload = JSON.parse(live.signed_payload_canonical);
    expect(data.attestationHash).toBe(live.attestation_hash.toLowerCase());
    expect(Number(data.signedAt)).toBe(payload.timestamp);
    expect(Number(data.reportBlock)).toBe(payload.report_block);
    const tx = await s.client.getTransactionReceipt({ hash: live.anchor.txHash });
    expect(Number(tx.blockNumber)).toBe(live.anchor.blockNumber);
    expect(Number(a.time)).toBe(live.anchor.blockTime);
    const { checks } = await anchorVerdict(await write(live, "live.json"));
    for (const name of ["anchored", "anchor attester", "anchor commits", "anchored in time"])
      expect([name, checks[name]?.ok]).toEqual([name, true]);
  });

  it("a statement signed now with yesterday's date, anchored now, is back-dated", async () => {
    const payload = JSON.parse(live.signed_payload_canonical);
    const { file } = await signAndAnchor({ ...payload, timestamp: payload.timestamp - 86_400 }, "backdated.json");
    const { exitCode, checks } = await anchorVerdict(file);
    expect(exitCode).toBe(1);
    expect(checks["anchored in time"]).toMatchObject({ ok: false, detail: expect.stringContaining("back-dated") });
  });

  it("a second, different statement for an anchored hour is a rewrite, named by its hash", async () => {
    const payload = JSON.parse(live.signed_payload_canonical);
    // Signed a second earlier (or later, at the hour's first second): the same hour.
    const timestamp = payload.timestamp % 3_600 === 0 ? payload.timestamp + 1 : payload.timestamp - 1;
    const { file, hash } = await signAndAnchor(
      { ...payload, timestamp, psm_usdc_reserve: payload.psm_usdc_reserve + 1 },
      "rewrite.json",
    );
    const original = await anchorVerdict(await write(live, "live-again.json"));
    expect(original.checks["one statement this hour"]).toMatchObject({ ok: false });
    expect(original.checks["one statement this hour"].detail).toContain(hash.toLowerCase());
    const rewrite = await anchorVerdict(file);
    expect(rewrite.exitCode).toBe(1);
    expect(rewrite.checks["one statement this hour"].detail).toContain(live.attestation_hash.toLowerCase());
  });

  it("a statement never anchored, past the window, is unanchored", async () => {
    const payload = JSON.parse(live.signed_payload_canonical);
    const { file } = await signAndAnchor(
      { ...payload, timestamp: payload.timestamp - 7_200 },
      "unanchored.json",
      false,
    );
    const { exitCode, checks } = await anchorVerdict(file);
    expect(exitCode).toBe(1);
    expect(checks.anchored).toMatchObject({ ok: false, detail: expect.stringContaining("unanchored") });
  });
});

async function write(artifact: unknown, name: string) {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(artifact));
  return file;
}

// The service's own store and RPC proxy: nothing of the stack's database. Once per CI run (the
// PostgreSQL pass skips it): the outage alone waits 30 s.
describe.runIf(inject("database") === "pglite")("the anchoring service", () => {
  /** An anchor service of its own: its store, the RPC behind a fault proxy, fast retries. */
  async function service() {
    const proxy = await startRpcProxy({ upstream: s.rpcUrl });
    const store = openOperatorStore({ directory: mkdtempSync(join(dir, "store-")) });
    const events: string[] = [];
    const make = () =>
      new AnchorService({
        store,
        rpcUrl: proxy.url,
        chainId: 8453,
        signerFor: () => key,
        pollMs: 200,
        leaseMs: 5_000,
        backoff: { baseMs: 200, capMs: 2_000 },
        onEvent: (e) =>
          events.push(e.type === "failed" ? `failed: ${e.error}` : `landed ${e.found ? "found" : "attested"}`),
      });
    return { proxy, store, events, make };
  }

  /** A statement in the service's store (a copy of the live one, re-signed so its hash is new). */
  async function stored(store: Promise<Awaited<ReturnType<typeof openOperatorStore>>>, nonce: number) {
    const payload = { ...JSON.parse(live.signed_payload_canonical), timestamp: Math.floor(Date.now() / 1000) + nonce };
    const signed = await signPayload(key, payload);
    await (await store).statements.insert({
      attestationHash: signed.attestation_hash,
      signer: signed.signer,
      timestamp: payload.timestamp,
      blockNumber: BigInt(payload.report_block),
      chainId: 8453,
      status: payload.status,
      artifact: JSON.stringify(withSignedCopies(signed, STATEMENT_COPIES)),
    });
    return signed.attestation_hash.toLowerCase() as Hex;
  }

  const attestationsOf = async (hash: Hex) => {
    const logs = await s.client.getContractEvents({
      address: EAS_ADDRESS,
      abi: easAbi,
      eventName: "Attested",
      args: { attester: key.address, schemaUID: ANCHOR_SCHEMA_UID },
      fromBlock: 0n,
    });
    const ours: Hex[] = [];
    for (const l of logs)
      if (decodeAnchorData((await getAttestation(l.args.uid!)).data)?.attestationHash.toLowerCase() === hash)
        ours.push(l.args.uid!);
    return ours;
  };

  it("keeps trying through a 30 s RPC outage and lands once", async () => {
    const { proxy, store, events, make } = await service();
    const anchors = make();
    const run = anchors.start();
    try {
      proxy.setFaults([{ mode: "http500" }]);
      const hash = await stored(store, 11);
      await anchors.want(hash);
      await new Promise((r) => setTimeout(r, 30_000));
      expect(events.filter((e) => e.startsWith("failed")).length).toBeGreaterThan(5);
      expect((await (await store).anchors.get(hash))?.status).toBe("pending");
      proxy.clearFaults();
      const deadline = Date.now() + 20_000;
      while ((await (await store).anchors.get(hash))?.status !== "landed") {
        if (Date.now() > deadline) throw new Error(`not landed: ${events.slice(-3).join("; ")}`);
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(await attestationsOf(hash)).toHaveLength(1);
    } finally {
      await run.stop();
      await (await store).close();
      await proxy.stop();
    }
  }, 90_000);

  it("a restart after the transaction was sent, its answer lost, finds the attestation instead of sending another", async () => {
    const { proxy, store, events, make } = await service();
    // The transaction reaches the chain; its answer never comes back.
    proxy.setFaults([{ method: "eth_sendRawTransaction", mode: "blackhole" }]);
    const first = make();
    const run = first.start();
    const hash = await stored(store, 22);
    await first.want(hash);
    const deadline = Date.now() + 20_000;
    while ((await attestationsOf(hash)).length === 0) {
      if (Date.now() > deadline) throw new Error("the blackholed transaction never landed");
      await new Promise((r) => setTimeout(r, 200));
    }
    // The process dies with the row still pending; its lease runs out.
    void run.stop();
    proxy.clearFaults();
    const second = make();
    const again = second.start();
    try {
      const until = Date.now() + 30_000;
      while ((await (await store).anchors.get(hash))?.status !== "landed") {
        if (Date.now() > until) throw new Error(`not landed: ${events.slice(-3).join("; ")}`);
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(events).toContain("landed found");
      expect(await attestationsOf(hash)).toHaveLength(1);
    } finally {
      await again.stop();
      await (await store).close();
      await proxy.stop();
    }
  }, 90_000);
});
