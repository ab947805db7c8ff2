/**
 * The signed statement's payload from a /api/por report, on the hand-made report fixture. Pure
 * (no devnet needed).
 */
import { describe, expect, it } from "vitest";
import { A, inputs } from "../reserves/por/fixture.js";
import { buildPorReport } from "../reserves/por/por-report.js";
import { buildStatementPayload, statementStatus } from "./statement-payload.js";

describe("signed statement payload", () => {
  it("status names PSM solvency and a degraded vault v1 mirror", () => {
    expect(statementStatus(true, "reconciled")).toBe("PSM_SOLVENT");
    expect(statementStatus(true, "capped-to-live-venue")).toBe("PSM_SOLVENT_VAULT_V1_DEGRADED_KNOWN");
    expect(statementStatus(false, "reconciled")).toBe("PSM_UNDER_BACKED");
    expect(statementStatus(null, "unverified")).toBe("PSM_UNKNOWN_VAULT_V1_DEGRADED_KNOWN");
  });

  it("publishes psm_solvency_ratio on outstanding kUSD and attests vault v2", () => {
    const r = buildPorReport(inputs());
    const p = buildStatementPayload(r, {
      timestamp: 1_790_000_100,
      chainName: "Base",
      signerRole: "attestation-key",
      bindingUrl: "http://site/api/por/signer-registry",
      bindingHash: null,
    });
    expect(p.psm_solvency_ratio).toBe(r.solvency.psmSolvencyRatio);
    expect(p.outstanding_kusd).toBe(900_000);
    expect(p.chains[0]!.vault_address).toBe(A(11));
    expect(p.timestamp).toBe(1_790_000_100);
  });
});
