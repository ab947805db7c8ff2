/**
 * The signer binding (spec 2.1 rule 2, served at /api/por/signer-registry): a document the
 * operator's venue-margin account signs, in the same canonical scheme as every artifact, that
 * authorises a separate attestation key from a given instant. Artifacts dated before that
 * instant must recover to the operator account itself; later ones to the attestation key.
 */
import { type Address, getAddress, type Hex, isAddress, type LocalAccount } from "viem";
import { KusdError } from "../errors.js";
import { type SignedArtifact, signPayload } from "./sign.js";
import { type Trust, type VerifyResult, verifyArtifact } from "./verify.js";

export const SIGNER_BINDING_SCHEMA = "kusd-signer-binding/v1";

export type SignerBindingPayload = {
  schema: typeof SIGNER_BINDING_SCHEMA;
  /** The operator's venue-margin account: signs the binding, and every artifact dated before valid_from. */
  operator: Address;
  /** The key authorised to sign artifacts dated at or after valid_from. */
  attestation_signer: Address;
  /** Unix seconds; the signed `timestamp` of an artifact is compared with it. */
  valid_from: number;
  valid_from_date: string;
  /** Artifacts the binding covers. */
  scope: string[];
  statement: string;
  /** When the binding was signed (unix seconds). */
  timestamp: number;
};

export type SignerBinding = SignedArtifact & { binding: SignerBindingPayload };

export class SignerBindingError extends KusdError<{ checks?: VerifyResult["checks"] }> {
  override name = "SignerBindingError";
  readonly code: string = "signer_binding_invalid";
  constructor(message: string, details: { checks?: VerifyResult["checks"] } = {}) {
    super(message, details);
  }
}

export const BINDING_SCOPE = ["por-signed-statement", "paid-reserves-attestation", "paid-instant-read"];

/** Builds and signs the binding with the operator account. Deterministic for the same inputs. */
export async function signSignerBinding(
  operator: LocalAccount,
  attestationSigner: Address,
  validFrom: number,
): Promise<SignerBinding> {
  const validFromDate = new Date(validFrom * 1000).toISOString().slice(0, 10);
  const payload: SignerBindingPayload = {
    schema: SIGNER_BINDING_SCHEMA,
    operator: operator.address,
    attestation_signer: getAddress(attestationSigner),
    valid_from: validFrom,
    valid_from_date: validFromDate,
    scope: BINDING_SCOPE,
    statement: `Artifacts signed at or after ${validFromDate}T00:00:00Z (unix ${validFrom}) are signed by ${getAddress(attestationSigner)}; artifacts dated earlier are signed by ${operator.address}.`,
    timestamp: validFrom,
  };
  return { ...(await signPayload(operator, payload)), binding: payload };
}

/** Signers a binding accepts for an artifact whose signed timestamp is `signedAt`. */
export function trustedSignersAt(binding: SignerBindingPayload, signedAt: number): Address[] {
  return [signedAt < binding.valid_from ? getAddress(binding.operator) : getAddress(binding.attestation_signer)];
}

/** The signers to accept as a function of an artifact's signed time, the checks that justify them, and the binding's hash (null when it failed). */
export type BindingTrust = Trust & { bindingHash: Hex | null };

/**
 * A published binding turned into trust: the signers it names once it verifies against `operator`,
 * none otherwise (fail-closed: a binding in doubt leaves nothing that can verify). The checks of a
 * binding that failed are listed as `binding <check>` after the summary `binding` check.
 */
export async function trustFromBinding(published: unknown, operator: Address): Promise<BindingTrust> {
  try {
    const binding = await verifySignerBinding(published, operator);
    const from = new Date(binding.valid_from * 1000).toISOString();
    const detail = `operator ${getAddress(binding.operator)} signs artifacts dated before ${from} (unix ${binding.valid_from}), ${getAddress(binding.attestation_signer)} from then on`;
    const bindingHash = (published as SignedArtifact).attestation_hash.toLowerCase() as Hex;
    return {
      trustedSigner: (signedAt) => trustedSignersAt(binding, signedAt),
      checks: [{ name: "binding", ok: true, detail }],
      bindingHash,
    };
  } catch (error) {
    const sub = error instanceof SignerBindingError ? (error.details.checks ?? []) : [];
    return {
      trustedSigner: () => [],
      bindingHash: null,
      checks: [
        { name: "binding", ok: false, detail: error instanceof Error ? error.message : String(error) },
        ...sub.map((c) => ({ ...c, name: `binding ${c.name}` })),
      ],
    };
  }
}

/**
 * Checks a published binding and returns its payload, parsed from the signed bytes (never from
 * the unsigned `binding` copy). The binding must recover to `operator`, the account the caller
 * trusts independently (the registry's venue-margin account).
 */
export async function verifySignerBinding(published: unknown, operator: Address): Promise<SignerBindingPayload> {
  const result = await verifyArtifact(published, { trustedSigner: () => [operator], maxAgeSeconds: null });
  if (!result.verified) throw new SignerBindingError("signer binding does not verify", { checks: result.checks });
  const payload = JSON.parse((published as SignedArtifact).signed_payload_canonical) as Partial<SignerBindingPayload>;
  if (
    payload.schema !== SIGNER_BINDING_SCHEMA ||
    typeof payload.operator !== "string" ||
    !isAddress(payload.operator) ||
    getAddress(payload.operator) !== getAddress(operator) ||
    typeof payload.attestation_signer !== "string" ||
    !isAddress(payload.attestation_signer) ||
    typeof payload.valid_from !== "number"
  ) {
    throw new SignerBindingError("signer binding payload is malformed", { checks: result.checks });
  }
  return payload as SignerBindingPayload;
}
