import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { signSignerBinding, trustFromBinding } from "./binding.js";

const operator = privateKeyToAccount("0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d");
const attestationKey = privateKeyToAccount("0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a");
const stranger = privateKeyToAccount("0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba");
const VALID_FROM = 1_786_579_200; // 2026-08-13T00:00:00Z

describe("trustFromBinding", () => {
  it("trusts the operator before valid_from and the bound key from then on", async () => {
    const trust = await trustFromBinding(
      await signSignerBinding(operator, attestationKey.address, VALID_FROM),
      operator.address,
    );
    expect(trust.checks).toEqual([
      { name: "binding", ok: true, detail: expect.stringContaining("2026-08-13T00:00:00.000Z (unix 1786579200)") },
    ]);
    expect(trust.trustedSigner(VALID_FROM - 1)).toEqual([operator.address]);
    expect(trust.trustedSigner(VALID_FROM)).toEqual([attestationKey.address]);
  });

  it("trusts nobody when another account signed the binding, and says which of its checks failed", async () => {
    const trust = await trustFromBinding(
      await signSignerBinding(stranger, attestationKey.address, VALID_FROM),
      operator.address,
    );
    expect(trust.checks[0]).toMatchObject({ name: "binding", ok: false });
    expect(trust.checks).toContainEqual(expect.objectContaining({ name: "binding authorised signer", ok: false }));
    expect(trust.trustedSigner(VALID_FROM)).toEqual([]);
    expect(trust.trustedSigner(0)).toEqual([]);
  });

  it("trusts nobody when the binding is not an artifact at all", async () => {
    const trust = await trustFromBinding(null, operator.address);
    expect(trust.checks[0]).toMatchObject({ name: "binding", ok: false });
    expect(trust.trustedSigner(VALID_FROM)).toEqual([]);
  });
});
