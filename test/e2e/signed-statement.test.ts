/**
 * The hourly signed statement and the signer binding on the devnet: the statement verifies
 * against the binding, dates before 2026-08-13 are signed by the operator account and later
 * ones by the attestation key (spec 2.1 rule 2), statements persist and list, and the verify
 * CLI accepts the live statement.
 */

import { trustedSignersAt, verifyArtifact, verifySignerBinding } from "@kusd/core";
import { getAddress } from "viem";
import { describe, expect, inject, it } from "vitest";
import { runVerify } from "../../packages/verify/src/node.js";
import { operatorStatementExample } from "../helpers/shared-reference.js";
import { stack } from "../helpers/stack.js";

const s = stack();
const d = s.deployment;
const operator = getAddress(d.signers.operator);
const attestation = getAddress(d.signers.attestation);
const token = inject("adminToken");
const get = async (path: string) => {
  const res = await fetch(`${s.indexerUrl}${path}`);
  return { status: res.status, body: (await res.json()) as any, text: "" };
};
const issue = async (block?: number, auth = `Bearer ${token}`) => {
  const res = await fetch(`${s.indexerUrl}/api/por/signed${block === undefined ? "" : `?block=${block}`}`, {
    method: "POST",
    headers: { authorization: auth },
  });
  return { status: res.status, body: (await res.json()) as any };
};
const realExample = operatorStatementExample()?.json;

/** The first block dated at or after `t`, found by bisection over the pinned history. */
async function blockAt(t: number): Promise<number> {
  let lo = 0;
  let hi = d.chains.base.historyEndBlock;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    const b = await s.client.getBlock({ blockNumber: BigInt(mid) });
    if (Number(b.timestamp) < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

describe("signer binding", () => {
  it("is signed by the operator's venue-margin account and authorises the attestation key from 2026-08-13", async () => {
    const { status, body } = await get("/api/por/signer-registry");
    expect(status).toBe(200);
    const binding = await verifySignerBinding(body, operator);
    expect(binding.attestation_signer).toBe(attestation);
    expect(binding.valid_from).toBe(Date.parse("2026-08-13T00:00:00Z") / 1000);
    expect(trustedSignersAt(binding, binding.valid_from - 1)).toEqual([operator]);
    expect(trustedSignersAt(binding, binding.valid_from)).toEqual([attestation]);
    // Keys are configuration, never served.
    const text = JSON.stringify(body);
    for (const k of Object.values(d.accounts)) expect(text).not.toContain(k.privateKey.slice(2));
  });
});

describe("signed statement", () => {
  it("the latest statement verifies against the binding and carries the report's figures", async () => {
    const { status, body } = await get("/api/por/signed");
    expect(status).toBe(200);
    const binding = await verifySignerBinding((await get("/api/por/signer-registry")).body, operator);
    const result = await verifyArtifact(body, {
      trustedSigner: (t) => trustedSignersAt(binding, t),
      maxAgeSeconds: 7_200,
    });
    expect(result.verified).toBe(true);
    expect(result.recovered).toBe(attestation);
    const payload = JSON.parse(body.signed_payload_canonical);
    const report = (await get(`/api/por?block=${payload.report_block}`)).body;
    expect(payload.psm_solvency_ratio).toBe(report.solvency.psmSolvencyRatio);
    expect(payload.outstanding_kusd).toBe(report.liabilities.kUSD.outstanding);
    expect(payload.psm_usdc_reserve).toBe(report.reserves.psm.usdcHeld);
    // Attests the live vault v2.
    expect(payload.chains[0].vault_address).toBe(report.reserves.vaultV2.address);
    expect(payload.chains[0].total_assets_wei).toBe(report.reserves.vaultV2.totalAssetsWei);
    expect(typeof payload.timestamp).toBe("number");
  });

  it.runIf(realExample)("uses the operator's key names wherever the concept is the same", async () => {
    const ours = JSON.parse((await get("/api/por/signed")).body.signed_payload_canonical);
    const theirs = JSON.parse(realExample!.signed_payload_canonical!);
    const shared = [
      "aggregate_collateral_usd",
      "aggregate_liabilities_usd",
      "aggregate_solvency_ratio",
      "aggregate_solvency_ratio_basis",
      "aggregate_solvency_usd_ratio",
      "eth_price_usd",
      "insurance_fund_usd",
      "is_solvent_resolved",
      "kusd_total_supply",
      "outstanding_kusd",
      "psm_kusd_held",
      "psm_reads_available",
      "psm_solvency_ratio",
      "psm_solvent",
      "psm_usdc_reserve",
      "safe_usd",
      "schema_version",
      "status",
      "timestamp",
      "treasury_usd",
      "vault_v1_degraded_known",
      "chains",
      "offchain",
    ];
    for (const k of shared) {
      expect(theirs).toHaveProperty(k);
      expect(ours).toHaveProperty(k);
    }
    for (const k of [
      "chain_id",
      "chain_name",
      "vault_address",
      "total_assets_eth",
      "total_assets_wei",
      "rpc_healthy",
      "timestamp",
    ])
      expect(ours.chains[0]).toHaveProperty(k);
  });

  it("rotation: a statement dated before 2026-08-13 recovers to the operator account, a later one to the attestation key", async () => {
    const rotation = Date.parse("2026-08-13T00:00:00Z") / 1000;
    const before = (await blockAt(rotation)) - 1;
    const after = await blockAt(rotation + 86_400);
    const early = await issue(before);
    const late = await issue(after);
    expect(early.status).toBe(201);
    expect(late.status).toBe(201);
    expect(getAddress(early.body.signer)).toBe(operator);
    expect(getAddress(late.body.signer)).toBe(attestation);
    const binding = await verifySignerBinding((await get("/api/por/signer-registry")).body, operator);
    for (const st of [early.body, late.body]) {
      expect(
        (await verifyArtifact(st, { trustedSigner: (t) => trustedSignersAt(binding, t), maxAgeSeconds: null }))
          .verified,
      ).toBe(true);
    }
    // Swapped: the operator's statement is not accepted where the attestation key is required.
    const swapped = await verifyArtifact(early.body, {
      trustedSigner: () => trustedSignersAt(binding, rotation + 1),
      maxAgeSeconds: null,
    });
    expect(swapped.verified).toBe(false);

    // Persisted: listed, and served byte for byte by hash.
    const history = (await get("/api/por/signed/history?limit=500")).body.statements.map(
      (x: any) => x.attestation_hash,
    );
    expect(history).toEqual(expect.arrayContaining([early.body.attestation_hash, late.body.attestation_hash]));
    const byHash = (await get(`/api/por/signed/${early.body.attestation_hash}`)).body;
    expect(byHash.signed_payload_canonical).toBe(early.body.signed_payload_canonical);
  });

  it("issuing on demand needs the admin token; bad list parameters are 4xx", async () => {
    expect((await issue(undefined, "Bearer wrong")).status).toBe(403);
    for (const q of ["limit=0", "limit=abc", "limit=501", "before=yesterday"]) {
      const res = await get(`/api/por/signed/history?${q}`);
      expect(res.status).toBe(400);
    }
    expect((await get("/api/por/signed/0x1234")).status).toBe(400);
    expect((await get(`/api/por/signed/0x${"ab".repeat(32)}`)).status).toBe(404);
  });

  it("the verify CLI accepts the live statement against the live binding, and refuses a wrong operator", async () => {
    const base = s.indexerUrl;
    const ok = await runVerify([
      `${base}/api/por/signed`,
      "--binding",
      `${base}/api/por/signer-registry`,
      "--operator",
      operator,
    ]);
    expect(ok.exitCode).toBe(0);
    const wrong = await runVerify([
      `${base}/api/por/signed`,
      "--binding",
      `${base}/api/por/signer-registry`,
      "--operator",
      attestation,
    ]);
    expect(wrong.exitCode).toBe(1);
  });
});
