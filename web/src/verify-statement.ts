/**
 * The signed statement, verified in the browser with the same code as `kusd-verify`: SHA-256 of
 * the published bytes, EIP-191 recovery, the recovered signer against the signer binding (itself
 * verified against the operator account), and freshness. Fail-closed: any doubt is red.
 */
import { getAddress, isAddress, type Address } from "viem";
import { trustedSignersAt, verifySignerBinding } from "../../core/attestation/binding.js";
import { STATEMENT_MAX_AGE_SECONDS, verifyArtifact, type VerifyResult } from "../../core/attestation/verify.js";

export type StatementVerification = VerifyResult & { attestationHash: string | null; status: string | null; operator: Address | null };

type Check = VerifyResult["checks"][number];

export async function verifyStatementText(
  statementText: string,
  bindingText: string | null,
  operator: string,
  now = Math.floor(Date.now() / 1000),
): Promise<StatementVerification> {
  const refused = (checks: Check[]): StatementVerification => ({ verified: false, checks, recovered: null, signedAt: null, attestationHash: null, status: null, operator: null });
  if (!isAddress(operator)) return refused([{ name: "operator", ok: false, detail: `not an address: ${operator}` }]);
  let statement: Record<string, unknown>;
  try {
    statement = JSON.parse(statementText) as Record<string, unknown>;
  } catch {
    return refused([{ name: "shape", ok: false, detail: "the published statement is not JSON" }]);
  }
  const trust: Check[] = [];
  let trustedSigner = (_signedAt: number): Address[] => [getAddress(operator)];
  if (bindingText !== null) {
    try {
      const binding = await verifySignerBinding(JSON.parse(bindingText), getAddress(operator));
      trustedSigner = (signedAt) => trustedSignersAt(binding, signedAt);
      trust.push({ name: "binding", ok: true, detail: `signed by operator ${getAddress(operator)}: ${getAddress(binding.attestation_signer)} signs from unix ${binding.valid_from}` });
    } catch (e) {
      trust.push({ name: "binding", ok: false, detail: e instanceof Error ? e.message : String(e) });
      trustedSigner = () => [];
    }
  } else {
    trust.push({ name: "binding", ok: true, detail: `no binding published: only operator ${getAddress(operator)} may sign` });
  }
  const result = await verifyArtifact(statement, { trustedSigner, maxAgeSeconds: STATEMENT_MAX_AGE_SECONDS, now });
  const checks = [...trust, ...result.checks];
  return {
    ...result,
    verified: result.verified && trust.every((c) => c.ok),
    checks,
    attestationHash: typeof statement.attestation_hash === "string" ? statement.attestation_hash : null,
    status: signedStatus(statement),
    operator: getAddress(operator),
  };
}

/** The status as signed (never the unsigned copy beside it), when the payload parses. */
function signedStatus(statement: Record<string, unknown>): string | null {
  try {
    const payload = JSON.parse(String(statement.signed_payload_canonical)) as { status?: unknown };
    return typeof payload.status === "string" ? payload.status : null;
  } catch {
    return null;
  }
}
