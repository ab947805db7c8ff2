/**
 * The signing scheme against the operator's real published statement (read from ../shared):
 * we verify its bytes as published, and a single changed byte fails.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { attestationHash, verifyArtifact } from "@kusd/core";
import { describe, expect, it } from "vitest";

const example = JSON.parse(
  readFileSync(
    join(
      import.meta.dirname,
      "..",
      "..",
      "..",
      "shared",
      "reference",
      "base-mainnet",
      "operator-signed-statement-example.json",
    ),
    "utf8",
  ),
);
const pinned = (signer: string) => () => [signer as `0x${string}`];

describe("the operator's real signed statement", () => {
  it("verifies with its signer pinned and freshness off", async () => {
    const result = await verifyArtifact(example, { trustedSigner: pinned(example.signer), maxAgeSeconds: null });
    expect(result.verified).toBe(true);
    expect(result.recovered).toBe(example.signer);
  });

  it("hashes the published bytes, not a re-serialisation (which differs for this payload)", () => {
    const reserialised = JSON.stringify(JSON.parse(example.signed_payload_canonical));
    expect(reserialised).not.toBe(example.signed_payload_canonical); // 4874515519514120.0 prints differently
    expect(attestationHash(example.signed_payload_canonical)).toBe(example.attestation_hash);
  });

  it("fails when one byte of the payload changes, or the signer is not the trusted one, or it is stale", async () => {
    const tampered = {
      ...example,
      signed_payload_canonical: example.signed_payload_canonical.replace('"psm_solvent":true', '"psm_solvent":fals'),
    };
    const oneByte = {
      ...example,
      signed_payload_canonical: example.signed_payload_canonical.replace("117.735154", "117.735155"),
    };
    for (const t of [tampered, oneByte]) {
      const result = await verifyArtifact(t, { trustedSigner: pinned(example.signer), maxAgeSeconds: null });
      expect(result.verified).toBe(false);
      expect(result.checks.find((c) => c.name === "hash")?.ok).toBe(false);
    }
    expect(
      (
        await verifyArtifact(example, {
          trustedSigner: pinned("0x000000000000000000000000000000000000dEaD"),
          maxAgeSeconds: null,
        })
      ).verified,
    ).toBe(false);
    expect(
      (await verifyArtifact(example, { trustedSigner: pinned(example.signer), maxAgeSeconds: 3600 })).verified,
    ).toBe(false);
  });
});
