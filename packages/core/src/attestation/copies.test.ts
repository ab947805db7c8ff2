import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { withSignedCopies } from "./copies.js";
import { signPayload } from "./sign.js";
import { pinnedTrust, verifyTrusted } from "./verify.js";

const signer = privateKeyToAccount("0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a");

describe("withSignedCopies", () => {
  it("copies only what the payload signed, so the copies always verify", async () => {
    const signed = await signPayload(signer, {
      timestamp: 1_790_000_000,
      status: "PSM_SOLVENT",
      signer_binding: "http://old-host/api/por/signer-registry",
    });
    const published = withSignedCopies(signed, ["status", "signer_binding", "aggregate_solvency_ratio"]);
    expect(published).toEqual({
      ...signed,
      status: "PSM_SOLVENT",
      signer_binding: "http://old-host/api/por/signer-registry",
    });
    expect("aggregate_solvency_ratio" in published).toBe(false);
    expect((await verifyTrusted(published, pinnedTrust([signer.address]), { maxAgeSeconds: null })).verified).toBe(
      true,
    );
    // What a handler that rebuilt the copy from its current configuration published: not verified.
    const rebuilt = { ...published, signer_binding: "http://new-host/api/por/signer-registry" };
    const result = await verifyTrusted(rebuilt, pinnedTrust([signer.address]), { maxAgeSeconds: null });
    expect(result.verified).toBe(false);
    expect(result.checks.find((c) => !c.ok)).toMatchObject({
      name: "unsigned copies",
      detail: expect.stringContaining("signer_binding"),
    });
  });
});
