/** "Verify in your browser": the latest signed statement, checked here from its published bytes. */

import { age } from "../format.js";
import type { StatementVerification } from "../verify-statement.js";

export function Verification({
  result,
  error,
  now,
}: {
  result: StatementVerification | null;
  error: string | null;
  now: number;
}) {
  const verified = result?.verified ?? false;
  const state = error ? "bad" : result === null ? "unknown" : verified ? "good" : "bad";
  const failed = result?.checks.find((c) => !c.ok);
  return (
    <section
      class={`card verification ${state}`}
      data-testid="verification"
      data-verified={result === null && !error ? "pending" : String(verified && !error)}
    >
      <h2>Verify in your browser</h2>
      {error && <p>Could not read the statement: {error}</p>}
      {!error && result === null && <p>Verifying the latest signed statement…</p>}
      {result && (
        <>
          <p class="verdict" data-testid="verdict">
            {verified
              ? "✓ The latest signed statement verifies."
              : `✗ The latest signed statement does not verify: ${failed ? `${failed.name}${failed.detail ? `: ${failed.detail}` : ""}` : "no checks ran"}.`}
          </p>
          <p class="note">
            {result.status && <>status {result.status} · </>}
            {result.signedAt !== null && (
              <>
                signed {new Date(result.signedAt * 1000).toISOString()} ({age(now / 1000 - result.signedAt)}) ·{" "}
              </>
            )}
            {result.attestationHash && <code title={result.attestationHash}>{result.attestationHash}</code>}
          </p>
          <ul class="checks">
            {result.checks.map((c) => (
              <li key={c.name} class={c.ok ? "good" : "bad"} data-testid={`check-${c.name.replace(/\s+/g, "-")}`}>
                {c.ok ? "✓" : "✗"} <strong>{c.name}</strong>
                {c.detail && <> — {c.detail}</>}
              </li>
            ))}
          </ul>
          <p class="note">
            Checked in this page with viem: SHA-256 of the published bytes, EIP-191 recovery, the signer against the
            binding that operator {result.operator ?? "?"} signed, and an age under two hours. The operator address
            comes from the account registry; pin your own with <code>?operator=0x…</code>. The same check on the command
            line:{" "}
            <code>
              npx kusd-verify {location.origin}/api/por/signed --binding {location.origin}/api/por/signer-registry
              --operator {result.operator ?? "<address>"}
            </code>
          </p>
        </>
      )}
    </section>
  );
}
