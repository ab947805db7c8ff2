/**
 * The signing scheme on our own artifacts: a signature round-trips with the signer trusted at
 * the signed time, and a changed byte, an untrusted signer, a stale artifact or malformed input
 * fail verification without throwing. (The operator's real statement is checked by
 * `npm run test:fidelity`, which reads it from ../shared.)
 */

import { keccak256, stringToHex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { signPayload } from "./sign.js";
import { pinnedTrust, verifyArtifact, verifyTrusted } from "./verify.js";

const account = (label: string) => privateKeyToAccount(keccak256(stringToHex(`kusd-test:${label}`)));
const operator = account("operator");
const attester = account("attester");
const rotation = 1_786_579_200; // 2026-08-13T00:00:00Z
const trustedSigner = (t: number) => [t < rotation ? operator.address : attester.address];

describe("verifyArtifact", () => {
  it("round-trips our own signature with the signer that was trusted at the signed time", async () => {
    const late = await signPayload(attester, { timestamp: rotation + 3600, psm_solvency_ratio: 1.001 });
    const early = await signPayload(attester, { timestamp: rotation - 3600, psm_solvency_ratio: 1.001 });
    expect((await verifyArtifact(late, { trustedSigner, maxAgeSeconds: null })).verified).toBe(true);
    expect((await verifyArtifact(early, { trustedSigner, maxAgeSeconds: null })).verified).toBe(false);
  });

  it("rejects the artifact when one byte of the signed payload changes", async () => {
    const signed = await signPayload(attester, {
      timestamp: rotation + 60,
      psm_solvency_ratio: 1.001,
      psm_solvent: true,
    });
    for (const payload of [
      signed.signed_payload_canonical.replace("1.001", "1.002"),
      signed.signed_payload_canonical.replace("true", "fals"),
    ]) {
      const result = await verifyArtifact(
        { ...signed, signed_payload_canonical: payload },
        { trustedSigner, maxAgeSeconds: null },
      );
      expect(result.verified).toBe(false);
      expect(result.checks.find((c) => c.name === "hash")?.ok).toBe(false);
    }
  });

  it("fails when a figure published beside the signed bytes differs from the signed payload's (it is not covered by the signature)", async () => {
    const signed = await signPayload(attester, {
      timestamp: rotation + 60,
      aggregate_solvency_ratio: 1.001,
      status: "PSM_SOLVENT",
    });
    const published = {
      ...signed,
      aggregate_solvency_ratio: 1.001,
      status: "PSM_SOLVENT",
      signer_binding: "https://x/api/por/signer-registry",
    };
    const ok = await verifyArtifact(published, { trustedSigner, maxAgeSeconds: null });
    expect(ok.verified).toBe(true);
    expect(ok.checks.find((c) => c.name === "unsigned copies")?.detail).toMatch(/2 top-level/);
    const altered = await verifyArtifact(
      { ...published, aggregate_solvency_ratio: 9.99 },
      { trustedSigner, maxAgeSeconds: null },
    );
    expect(altered.verified).toBe(false);
    expect(altered.checks.find((c) => c.name === "unsigned copies")).toMatchObject({
      ok: false,
      detail: expect.stringContaining("aggregate_solvency_ratio"),
    });
    expect((await verifyArtifact({ ...published, status: 1n }, { trustedSigner, maxAgeSeconds: null })).verified).toBe(
      false,
    );
  });

  it("rejects an untrusted signer, a stale artifact and malformed input without throwing", async () => {
    const signed = await signPayload(attester, { timestamp: rotation + 60, psm_solvency_ratio: 1.001 });
    expect(
      (await verifyArtifact(signed, { trustedSigner: () => [operator.address], maxAgeSeconds: null })).verified,
    ).toBe(false);
    expect(
      (await verifyArtifact(signed, { trustedSigner, maxAgeSeconds: 3600, now: rotation + 60 + 7200 })).verified,
    ).toBe(false);
    for (const junk of [null, "x", {}, { ...signed, signature: "0x1234" }]) {
      expect((await verifyArtifact(junk, { trustedSigner, maxAgeSeconds: null })).verified).toBe(false);
    }
  });
});

describe("binding named by the artifact", () => {
  it("an artifact that names its binding's hash verifies only against that binding", async () => {
    const bindingHash = `0x${"ab".repeat(32)}` as const;
    const signed = await signPayload(attester, { timestamp: rotation + 60, signer_binding_hash: bindingHash });
    const trust = { trustedSigner, checks: [] };
    expect((await verifyTrusted(signed, { ...trust, bindingHash }, { maxAgeSeconds: null })).verified).toBe(true);
    const other = await verifyTrusted(
      signed,
      { ...trust, bindingHash: `0x${"cd".repeat(32)}` },
      { maxAgeSeconds: null },
    );
    expect(other.verified).toBe(false);
    expect(other.checks.find((c) => !c.ok)?.name).toBe("binding named");
    // Pinned signers carry no binding: the name is not checked.
    expect((await verifyTrusted(signed, pinnedTrust([attester.address]), { maxAgeSeconds: null })).verified).toBe(true);
  });
  it("verifyTrusted fails when the trust's own checks failed, and lists them first", async () => {
    const signed = await signPayload(attester, { timestamp: rotation + 60 });
    const result = await verifyTrusted(
      signed,
      { trustedSigner, checks: [{ name: "binding", ok: false, detail: "x" }] },
      { maxAgeSeconds: null },
    );
    expect(result.verified).toBe(false);
    expect(result.checks[0]).toEqual({ name: "binding", ok: false, detail: "x" });
  });
});
