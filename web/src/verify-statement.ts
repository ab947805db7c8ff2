/**
 * The signed statement, verified in the browser with the same code as `kusd-verify`: SHA-256 of
 * the published bytes, EIP-191 recovery, the recovered signer against the signer binding (itself
 * verified against the operator account), and freshness. Fail-closed: any doubt is red.
 */

import { STATEMENT_MAX_AGE_SECONDS, type Trust, trustFromBinding, type VerifyResult, verifyTrusted } from "@kusd/core";
import { type Address, getAddress, isAddress } from "viem";

export type StatementVerification = VerifyResult & {
  attestationHash: string | null;
  status: string | null;
  operator: Address | null;
};

type Check = VerifyResult["checks"][number];

export async function verifyStatementText(
  statementText: string,
  bindingText: string | null,
  operator: string,
  now = Math.floor(Date.now() / 1000),
): Promise<StatementVerification> {
  const refused = (checks: Check[]): StatementVerification => ({
    verified: false,
    checks,
    recovered: null,
    signedAt: null,
    attestationHash: null,
    status: null,
    operator: null,
  });
  if (!isAddress(operator)) return refused([{ name: "operator", ok: false, detail: `not an address: ${operator}` }]);
  let statement: Record<string, unknown>;
  try {
    statement = JSON.parse(statementText) as Record<string, unknown>;
  } catch {
    return refused([{ name: "shape", ok: false, detail: "the published statement is not JSON" }]);
  }
  const trust: Trust =
    bindingText === null
      ? {
          trustedSigner: (): Address[] => [getAddress(operator)],
          checks: [
            {
              name: "binding",
              ok: true,
              detail: `no binding published: only operator ${getAddress(operator)} may sign`,
            },
          ],
        }
      : await trustFromBinding(parseOrNull(bindingText), getAddress(operator));
  const result = await verifyTrusted(statement, trust, { maxAgeSeconds: STATEMENT_MAX_AGE_SECONDS, now });
  return {
    ...result,
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

/** A binding that is not JSON is refused by the binding check itself, like any malformed one. */
function parseOrNull(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
