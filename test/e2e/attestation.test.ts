/**
 * The signing scheme against the operator's real published statement: we verify its bytes
 * as published, and a single changed byte fails.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { privateKeyToAccount } from "viem/accounts";
import { attestationHash, canonicalJson, CanonicalJsonError } from "../../core/attestation/canonical.js";
import { signPayload } from "../../core/attestation/sign.js";
import { verifyArtifact } from "../../core/attestation/verify.js";
import { devnetKey } from "../../devnet/keys.js";

const example = JSON.parse(
  readFileSync(join(import.meta.dirname, "..", "..", "..", "shared", "reference", "base-mainnet", "operator-signed-statement-example.json"), "utf8"),
);
const pinned = (signer: string) => () => [signer as `0x${string}`];

describe("canonical JSON", () => {
  it("sorts keys at every depth and writes no whitespace", () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: 2 }], c: "x" } })).toBe('{"a":{"c":"x","d":[2,{"y":2,"z":1}]},"b":1}');
  });
  it("refuses bigint and non-finite numbers instead of guessing", () => {
    expect(() => canonicalJson({ a: 1n })).toThrow(CanonicalJsonError);
    expect(() => canonicalJson({ a: Number.NaN })).toThrow(CanonicalJsonError);
  });
});

describe("verifyArtifact", () => {
  it("accepts the operator's real statement with its signer pinned and freshness off", async () => {
    const result = await verifyArtifact(example, { trustedSigner: pinned(example.signer), maxAgeSeconds: null });
    expect(result.verified).toBe(true);
    expect(result.recovered).toBe(example.signer);
  });

  it("hashes the published bytes, not a re-serialisation (which differs for this payload)", async () => {
    const reserialised = JSON.stringify(JSON.parse(example.signed_payload_canonical));
    expect(reserialised).not.toBe(example.signed_payload_canonical); // 4874515519514120.0 prints differently
    expect(attestationHash(example.signed_payload_canonical)).toBe(example.attestation_hash);
  });

  it("rejects the statement when one byte of the payload changes", async () => {
    const tampered = { ...example, signed_payload_canonical: example.signed_payload_canonical.replace('"psm_solvent":true', '"psm_solvent":fals') };
    const oneByte = { ...example, signed_payload_canonical: example.signed_payload_canonical.replace("117.735154", "117.735155") };
    for (const t of [tampered, oneByte]) {
      const result = await verifyArtifact(t, { trustedSigner: pinned(example.signer), maxAgeSeconds: null });
      expect(result.verified).toBe(false);
      expect(result.checks.find((c) => c.name === "hash")?.ok).toBe(false);
    }
  });

  it("rejects an untrusted signer, a stale statement and malformed input without throwing", async () => {
    const other = devnetKey("test:someone").address;
    expect((await verifyArtifact(example, { trustedSigner: pinned(other), maxAgeSeconds: null })).verified).toBe(false);
    expect((await verifyArtifact(example, { trustedSigner: pinned(example.signer), maxAgeSeconds: 3600 })).verified).toBe(false);
    for (const junk of [null, "x", {}, { ...example, signature: "0x1234" }]) {
      expect((await verifyArtifact(junk, { trustedSigner: pinned(example.signer), maxAgeSeconds: null })).verified).toBe(false);
    }
  });

  it("round-trips our own signature with the signer that was trusted at the signed time", async () => {
    const operator = privateKeyToAccount(devnetKey("test:operator").privateKey);
    const attester = privateKeyToAccount(devnetKey("test:attester").privateKey);
    const rotation = 1_786_579_200; // 2026-08-13T00:00:00Z
    const trustedSigner = (t: number) => [t < rotation ? operator.address : attester.address];
    const late = await signPayload(attester, { timestamp: rotation + 3600, psm_solvency_ratio: 1.001 });
    const early = await signPayload(attester, { timestamp: rotation - 3600, psm_solvency_ratio: 1.001 });
    expect((await verifyArtifact(late, { trustedSigner, maxAgeSeconds: null })).verified).toBe(true);
    expect((await verifyArtifact(early, { trustedSigner, maxAgeSeconds: null })).verified).toBe(false);
  });
});
