/**
 * Command line of `kusd-verify`. Parsing is strict: an unknown option, a second positional or
 * two trust sources are usage errors rather than guesses, because a verifier that silently
 * ignores `--singer 0x…` would verify against nothing the user meant.
 */
import { parseArgs } from "node:util";
import { type Address, getAddress, isAddress } from "viem";
/** Two hourly cadences: one missed statement is tolerated, two are not. */
import { STATEMENT_MAX_AGE_SECONDS } from "../../core/attestation/verify.js";
import { UsageError } from "./errors.js";

export const USAGE = `Usage: kusd-verify <artifact URL or file> [--signer <address>]... [--binding <URL or file> --operator <address>] [--max-age <seconds> | --no-freshness] [--json]

Verifies a signed kUSD artifact (the hourly signed statement, the paid GET /reserves response,
a paid instant read): hashes the published signed_payload_canonical bytes with SHA-256 as they
are (never re-serialised), recovers the EIP-191 signer, checks it against the trusted signer at
the signed time, and checks freshness from the signed timestamp.

Trust source (exactly one):
  --signer <address>      accept this signer; repeat to accept several
  --binding <URL|file>    the operator's signer binding (/api/por/signer-registry); it must be
  --operator <address>    signed by --operator, and then decides which key may sign an
                          artifact dated at its signed timestamp

Freshness:
  --max-age <seconds>     maximum age of the signed timestamp (default ${STATEMENT_MAX_AGE_SECONDS})
  --no-freshness          skip the freshness check (e.g. to verify an archived artifact)

Output:
  --json                  print one JSON object {verified, checks, recovered, signedAt, payload}
  -h, --help              print this help

The document may be the artifact itself (fields attestation_hash, signature, signer and
signed_payload_canonical at top level, other fields allowed) or a JSON object nesting exactly
one such artifact. Only signed_payload_canonical is covered by the signature.

Exit codes:
  0  verified
  1  not verified; this includes a document that is not JSON or holds no artifact, because
     what was published cannot be verified
  2  usage error, or the file or URL could not be read (network error, 10 s timeout, non-2xx)`;

export type TrustSource =
  | { kind: "pinned"; signers: Address[] }
  | { kind: "binding"; source: string; operator: Address };

export type VerifyCommand =
  | { kind: "help" }
  | { kind: "verify"; source: string; trust: TrustSource; maxAgeSeconds: number | null; json: boolean };

function parseAddress(option: string, value: string): Address {
  // viem's strict check also rejects a mixed-case address whose checksum is wrong: a typo.
  if (!isAddress(value)) throw new UsageError(`${option}: not an address (or a wrong checksum): ${value}`);
  return getAddress(value);
}

function parseMaxAge(value: string): number {
  if (!/^[0-9]+$/.test(value) || Number(value) <= 0 || !Number.isSafeInteger(Number(value))) {
    throw new UsageError(`--max-age: a positive whole number of seconds, got ${value}`);
  }
  return Number(value);
}

export function parseVerifyArgs(argv: string[]): VerifyCommand {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    // parseArgs throws TypeErrors with ERR_PARSE_ARGS_* codes for unknown or malformed options.
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  if (values.help) return { kind: "help" };

  if (positionals.length === 0) throw new UsageError("missing the artifact URL or file");
  if (positionals.length > 1)
    throw new UsageError(`one artifact at a time, got ${positionals.length}: ${positionals.join(" ")}`);
  const source = positionals[0]!;
  if (source === "") throw new UsageError("empty artifact URL or file");

  const signers = (values.signer ?? []).map((s) => parseAddress("--signer", s));
  const hasBinding = values.binding !== undefined || values.operator !== undefined;
  if (signers.length > 0 && hasBinding)
    throw new UsageError("choose one trust source: --signer, or --binding with --operator");
  let trust: TrustSource;
  if (signers.length > 0) {
    trust = { kind: "pinned", signers };
  } else if (hasBinding) {
    if (values.binding === undefined || values.binding === "")
      throw new UsageError("--operator needs --binding <URL or file>");
    if (values.operator === undefined)
      throw new UsageError(
        "--binding needs --operator <address>: the binding is only as trusted as the account that must have signed it",
      );
    trust = { kind: "binding", source: values.binding, operator: parseAddress("--operator", values.operator) };
  } else {
    throw new UsageError(
      "no trust source: pass --signer <address>, or --binding <URL or file> with --operator <address>",
    );
  }

  if (values["max-age"] !== undefined && values["no-freshness"])
    throw new UsageError("--max-age and --no-freshness contradict each other");
  const maxAgeSeconds = values["no-freshness"]
    ? null
    : values["max-age"] !== undefined
      ? parseMaxAge(values["max-age"])
      : STATEMENT_MAX_AGE_SECONDS;

  return { kind: "verify", source, trust, maxAgeSeconds, json: values.json ?? false };
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      signer: { type: "string", multiple: true },
      binding: { type: "string" },
      operator: { type: "string" },
      "max-age": { type: "string" },
      // Declared as its own flag: Node 20's parseArgs has no automatic --no-* negation.
      "no-freshness": { type: "boolean" },
      json: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
}
