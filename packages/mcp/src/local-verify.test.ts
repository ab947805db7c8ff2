/**
 * verify_statement with an RPC on the agent's machine: kusd-verify runs over the artifact with the
 * trust kusd-mcp was started with (a pinned signer, the operator's binding as read here, or the
 * operator alone when no binding is published) and the agent's sources as its options; its exit
 * code and JSON are the verdict, pending (exit 3) apart from not verified. kusd-verify's checks
 * themselves are its own (test/e2e/rederive.test.ts, test/e2e/verify-l1.test.ts).
 */
import { signPayload } from "@kusd/core";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { pendingAnchoring } from "./anchoring.test-support.js";
import { localStatementVerifier, localTrust, verdictText } from "./local-verify.js";

const API = "http://127.0.0.1:42069";
const OPERATOR = "0x209693Bc6afc0C5328bA36FaF03C514EF312287C";
const sources = { rpc: "http://127.0.0.1:8545", venue: null, l1: { rpc: "http://127.0.0.1:8546", blockHash: null } };
const signer = privateKeyToAccount(generatePrivateKey());
const BINDING = '{"binding":"as served"}';

/** A run of kusd-verify that records what it was asked and answers pending on Ethereum. */
function recorder(exitCode: 0 | 1 | 2 | 3 = 3) {
  const runs: { argv: string[]; documents: Record<string, string> }[] = [];
  const run = async (argv: string[], io: { readFile?: (path: string) => Promise<string> } = {}) => {
    const documents: Record<string, string> = {};
    for (const name of ["statement.json", "signer-registry.json"])
      documents[name] = await io.readFile!(name).catch(() => "(none)");
    runs.push({ argv, documents });
    const checks = [
      { name: "signature", ok: true },
      { name: "ethereum", ok: false, detail: `PENDING: ${pendingAnchoring.detail}` },
    ];
    const json =
      exitCode === 2
        ? { verified: false, error: { type: "SourceError", message: "the L1 RPC gave no header" } }
        : {
            verified: exitCode === 0,
            checks,
            recovered: signer.address,
            signedAt: 1,
            figures: [],
            ethereum: pendingAnchoring,
          };
    return { exitCode, output: `${JSON.stringify(json)}\n` };
  };
  return { run, runs };
}

const served = (status: number) => async () => new Response(status === 200 ? BINDING : "", { status });

describe("localStatementVerifier", () => {
  it("runs kusd-verify with the operator's binding as read here, the agent's sources, --l1-rpc and --json", async () => {
    const artifact = await signPayload(signer, { kind: "test", timestamp: 1 });
    const { run, runs } = recorder();
    const verify = localStatementVerifier(API, { operator: OPERATOR }, "devnet/network.json", {
      fetch: served(200),
      runVerify: run,
    });
    const v = await verify(artifact, null, sources);
    expect(runs[0]!.argv).toEqual([
      "statement.json",
      "--binding",
      "signer-registry.json",
      "--operator",
      OPERATOR,
      "--no-freshness",
      "--rpc",
      "http://127.0.0.1:8545",
      "--network",
      "devnet/network.json",
      "--l1-rpc",
      "http://127.0.0.1:8546",
      "--json",
    ]);
    expect(runs[0]!.documents).toEqual({ "statement.json": JSON.stringify(artifact), "signer-registry.json": BINDING });
    expect(v).toMatchObject({
      verified: false,
      status: "pending",
      ethereum: pendingAnchoring,
      attestation_hash: artifact.attestation_hash,
      trust: `signer binding ${API}/api/por/signer-registry, signed by operator ${OPERATOR} (checked on this machine)`,
    });
    expect(verdictText(v).split("\n").at(-1)).toBe(`PENDING (trust: ${v.trust})`);
  });

  it("trusts the operator alone when no binding is published, and a pinned signer as --signer", async () => {
    const { run, runs } = recorder(0);
    await localStatementVerifier(API, { operator: OPERATOR }, null, { fetch: served(404), runVerify: run })(
      {},
      3600,
      sources,
    );
    await localStatementVerifier(API, { signer: signer.address }, null, { fetch: served(500), runVerify: run })(
      {},
      3600,
      { ...sources, l1: null },
    );
    expect(runs.map((r) => r.argv.slice(0, 5))).toEqual([
      ["statement.json", "--signer", OPERATOR, "--max-age", "3600"],
      ["statement.json", "--signer", signer.address, "--max-age", "3600"],
    ]);
    expect(runs[1]!.argv).not.toContain("--l1-rpc");
  });

  it("throws when kusd-verify judged nothing (exit 2): a tool error naming why", async () => {
    const { run } = recorder(2);
    const verify = localStatementVerifier(API, { signer: signer.address }, null, {
      fetch: served(404),
      runVerify: run,
    });
    await expect(verify({}, null, sources)).rejects.toThrow("kusd-verify judged nothing: the L1 RPC gave no header");
  });
});

describe("localTrust", () => {
  it("refuses every signer when the binding served is not JSON (fail-closed)", async () => {
    const trust = await localTrust(API, { operator: OPERATOR }, async () => new Response("<html>", { status: 200 }));
    expect(trust.trustedSigner(1)).toEqual([]);
  });
});
