import { signPayload, signSignerBinding } from "@kusd/core";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { verifyStatementText } from "./verify-statement.js";

const operator = privateKeyToAccount("0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d");
const attestationKey = privateKeyToAccount("0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a");
const NOW = 1_800_000_000;

async function published(signer = attestationKey, timestamp = NOW - 60) {
  return JSON.stringify(
    await signPayload(signer, { schema_version: 4, status: "PSM_SOLVENT", kusd_total_supply: 1000, timestamp }),
  );
}
const binding = async () => JSON.stringify(await signSignerBinding(operator, attestationKey.address, NOW - 86_400));

describe("verifyStatementText (the page's check)", () => {
  it("green for a statement signed by the key the operator's binding names", async () => {
    const r = await verifyStatementText(await published(), await binding(), operator.address, NOW);
    expect(r.verified).toBe(true);
    expect(r.checks.map((c) => c.name)).toEqual(
      expect.arrayContaining(["binding", "hash", "signature", "authorised signer", "fresh"]),
    );
    expect(r.status).toBe("PSM_SOLVENT");
  });

  it("red on a changed byte of the signed payload: the hash check names it", async () => {
    const artifact = JSON.parse(await published());
    artifact.signed_payload_canonical = artifact.signed_payload_canonical.replace(
      '"kusd_total_supply":1000',
      '"kusd_total_supply":1001',
    );
    const r = await verifyStatementText(JSON.stringify(artifact), await binding(), operator.address, NOW);
    expect(r.verified).toBe(false);
    expect(r.checks.find((c) => !c.ok)?.name).toBe("hash");
  });

  it("red when the binding is not the operator's, when the signer is not bound, and when stale", async () => {
    const stranger = privateKeyToAccount("0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba");
    expect(
      (await verifyStatementText(await published(), await binding(), stranger.address, NOW)).checks[0],
    ).toMatchObject({ name: "binding", ok: false });
    expect(
      (await verifyStatementText(await published(stranger), await binding(), operator.address, NOW)).checks.find(
        (c) => c.name === "authorised signer",
      )?.ok,
    ).toBe(false);
    expect(
      (
        await verifyStatementText(await published(attestationKey, NOW - 7201), await binding(), operator.address, NOW)
      ).checks.find((c) => c.name === "fresh")?.ok,
    ).toBe(false);
  });

  it("without a binding only the operator may sign; not JSON and a bad operator are red", async () => {
    expect((await verifyStatementText(await published(operator), null, operator.address, NOW)).verified).toBe(true);
    expect((await verifyStatementText(await published(), null, operator.address, NOW)).verified).toBe(false);
    expect((await verifyStatementText("<html>", null, operator.address, NOW)).checks[0]?.name).toBe("shape");
    expect((await verifyStatementText(await published(), null, "0x12", NOW)).checks[0]?.name).toBe("operator");
  });
});
