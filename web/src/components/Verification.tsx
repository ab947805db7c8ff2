/**
 * "Verify in your browser": the latest signed statement, checked here from its published bytes.
 * The card has one shape in every state (verifying, green, red, unreadable): the same lines, the
 * hash and addresses in monospace with placeholders of their final length, one line per check in
 * a list that reserves the rows of a full verification. So the verdict arriving moves nothing.
 */

import type { StatementVerification } from "../verify-statement.js";
import { Age } from "./Age.js";

/** Placeholders as long as what replaces them, so a monospace line wraps the same before and after. */
const HASH_PLACEHOLDER = `0x${"·".repeat(64)}`;
const ADDRESS_PLACEHOLDER = `0x${"·".repeat(40)}`;

export function Verification({ result, error }: { result: StatementVerification | null; error: string | null }) {
  const pending = result === null && !error;
  const verified = result?.verified ?? false;
  const state = error ? "bad" : pending ? "unknown" : verified ? "good" : "bad";
  const failed = result?.checks.find((c) => !c.ok);
  const verdict = error
    ? `✗ Could not read the statement: ${error}`
    : result === null
      ? "Verifying the latest signed statement…"
      : verified
        ? "✓ The latest signed statement verifies."
        : `✗ The latest signed statement does not verify: ${failed ? `${failed.name}${failed.detail ? `: ${failed.detail}` : ""}` : "no checks ran"}.`;
  const signedAt = result?.signedAt ?? null;
  const operator = result?.operator ?? null;
  return (
    <section
      class={`card verification ${state}`}
      data-testid="verification"
      data-verified={pending ? "pending" : String(verified && !error)}
      aria-busy={pending}
    >
      <h2>Verify in your browser</h2>
      {/* Keyed by state: the verdict replaces the placeholder lines instead of moving their text. */}
      <div key={pending ? "pending" : "done"}>
        <p class="verdict line" data-testid="verdict" title={verdict}>
          {verdict}
        </p>
        <p class="note meta">
          <span class="line" title={result?.status ?? undefined}>
            status {result?.status ?? "…"}
          </span>
          <span class="sep"> · </span>
          <span class="line">
            {signedAt !== null ? (
              <>
                signed {new Date(signedAt * 1000).toISOString()} (<Age sinceMs={signedAt * 1000} />)
              </>
            ) : pending ? (
              "signed …"
            ) : (
              "signed time unknown"
            )}
          </span>
        </p>
        <p class="note">
          attestation hash{" "}
          <code class={result?.attestationHash ? "" : "placeholder"} title={result?.attestationHash ?? undefined}>
            {result?.attestationHash ?? HASH_PLACEHOLDER}
          </code>
        </p>
        <ul class="checks" aria-label="checks">
          {result?.checks.map((c) => (
            <li
              key={c.name}
              class={c.ok ? "good" : "bad"}
              data-testid={`check-${c.name.replace(/\s+/g, "-")}`}
              title={c.detail}
            >
              {c.ok ? "✓" : "✗"} <strong>{c.name}</strong>
              {c.detail && <> — {c.detail}</>}
            </li>
          ))}
        </ul>
      </div>
      <p class="note">
        Checked in this page with viem: SHA-256 of the published bytes, EIP-191 recovery, the signer against the binding
        that operator <Address value={operator} /> signed, and an age under two hours. The operator address comes from
        the account registry; pin your own with <code>?operator=0x…</code>. The same check on the command line:{" "}
        <code>
          npx kusd-verify {location.origin}/api/por/signed --binding {location.origin}/api/por/signer-registry
          --operator <Address value={operator} bare />
        </code>
      </p>
    </section>
  );
}

function Address({ value, bare = false }: { value: string | null; bare?: boolean }) {
  const text = value ?? ADDRESS_PLACEHOLDER;
  const cls = value ? undefined : "placeholder";
  return bare ? <span class={cls}>{text}</span> : <code class={cls}>{text}</code>;
}
