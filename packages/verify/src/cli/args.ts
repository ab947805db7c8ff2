/**
 * Command line of `kusd-verify`. Parsing is strict: an unknown option, a second positional or
 * two trust sources are usage errors rather than guesses, because a verifier that silently
 * ignores `--singer 0x…` would verify against nothing the user meant.
 */
import { parseArgs } from "node:util";
/** Two hourly cadences: one missed statement is tolerated, two are not. */
import { ANCHOR_WINDOW_SECONDS, STATEMENT_MAX_AGE_SECONDS } from "@kusd/core";
import { type Address, getAddress, isAddress } from "viem";
import { DEFAULT_BRACKET_TOLERANCE } from "../rederive/venue-bracket.js";
import { VENUE_NOW_MAX_AGE_SECONDS } from "../reports/report-verifier.js";
import { UsageError } from "./errors.js";

export const USAGE = `Usage: kusd-verify <artifact URL or file> [--signer <address>]... [--binding <URL or file> --operator <address>] [--max-age <seconds> | --no-freshness]
                   [--rpc <URL> [--network <file>] [--venue <URL>] [--proofs [--block-hash <hash> | --header-rpc <URL>]]
                   [--l1-rpc <URL> [--l1-block-hash <hash>]] [--anchor-window <s>]] [--json]
       kusd-verify --report <report URL or file> --rpc <URL> [--network <file>] [--venue <URL>] [--venue-max-age <s>]
                   [--proofs [--block-hash <hash> | --header-rpc <URL>] | --l1-rpc <URL> [--l1-block-hash <hash>]] [--json]

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

Re-derivation (a signed statement or instant read, or with --report any report the service
publishes), without trusting its publisher:
  --rpc <URL>             your own Base RPC: every figure the statement signs is read again at its
                          report_block, pinned by report_block_hash (EIP-1898), with the service's
                          own read plan and assembler, and compared figure by figure. A figure that
                          rests on the venue equity recorded at signing is shown as such, never as
                          equal. Verified only when every other figure is equal.
                          An instant read: your own RPC of the chain it is of (an ethereum read
                          needs an Ethereum RPC; another chain's stops with exit 2): the token's
                          symbol, decimals and total supply read again at its block_number, pinned
                          by its block_hash, and compared figure by figure.
  --report                the document is an unsigned report: /api/por, /api/apy, /api/hedge-ledger,
                          /api/stats, /api/psm-status, /api/risk-status, the lending market's report,
                          /api/honesty-index, /api/history, /api/por/redemption-plan or
                          /api/por/accounts/violations (at the head, or at a past block). Its pins
                          name its block (by hash), its venue requests and windows: every input is
                          read again and every figure re-derived; no trust source (no one signed it).
                          Exit 0 when no figure differs
  --network <file>        the network document naming the contracts and accounts (default: Base's,
                          shipped with this package; the devnet's is devnet/network.json)
  --ethereum-rpc <URL>    your Ethereum RPC, for what a report reads on Ethereum (the honesty board's
                          peer vaults there)
  --venue <URL>           your venue endpoint (POST /info; default: the network document's, for Base
                          Hyperliquid's public https://api.hyperliquid.xyz/info): history re-read,
                          a recorded equity bracketed in its account value history
  --venue-max-age <s>     read current-only venue answers again when the report is at most this
                          old (default ${VENUE_NOW_MAX_AGE_SECONDS}); older ones are shown as recorded
  --bracket-tolerance <f> how far a recorded equity may lie outside the venue's samples around its
                          time, as a fraction (default ${DEFAULT_BRACKET_TOLERANCE})
  --proofs                execute every read of the block in a local EVM whose every account, code
                          and storage slot is proven with eth_getProof (EIP-1186) against the
                          state root of the block header, the header against the block hash; each
                          answer must be what eth_call answered. A statement's figures then rest on
                          the block hash alone; a report's too, but for what it reads from logs or
                          at other blocks (named, "unproven")
  --block-hash <hash>     the block hash you trust (it must be the statement's report_block_hash,
                          or the report's pins.block.hash)
  --header-rpc <URL>      or: a second RPC whose block at that number must have that hash
                          (with neither, the hash is the document's own, as --rpc confirms it)
  --l1-rpc <URL>          trust only Ethereum (implies --proofs): the block's hash is proven from the
                          output roots Base posts on Ethereum. The dispute games covering the block
                          are proven from Ethereum state (their root, range, status, and the
                          AnchorStateRegistry's judgement, executed over eth_getProof proofs against
                          the Ethereum header), the output root of the covering root's Base block is
                          recomputed from --rpc's header and message-passer proof, and parent hashes
                          are walked back to the block. Says the game's state (final, resolved, in
                          progress, invalid) and when it becomes final. A block newer than every
                          posted root is pending (exit 3)
  --l1-block-hash <hash>  the Ethereum block hash you trust (from your own consensus client); proofs
                          are fetched below it from --l1-rpc (default: --l1-rpc's latest block)
  --anchor-window <s>     with --rpc the statement's anchor on Base (an EAS attestation of its
                          hash by the authorised key) is checked too: made at most this long
                          after the signed time (default ${ANCHOR_WINDOW_SECONDS}), else back-dated; none
                          after it: unanchored; another statement anchored for its hour: rewritten

Each figure's kind: equal or differs (re-derived from your own reads); declared (operator policy
in the network document, never "equal"); venue-now (rests on a current-only venue answer, checked
as recorded, read again while young); bracketed (a recorded venue equity inside the venue's
account value history around its time); beyond-retention (rests on venue records the venue no
longer serves).

Output:
  --json                  print one JSON object {verified, checks, recovered, signedAt, figures, payload}
  -h, --help              print this help

The document may be the artifact itself (fields attestation_hash, signature, signer and
signed_payload_canonical at top level, other fields allowed) or a JSON object nesting exactly
one such artifact. Only signed_payload_canonical is covered by the signature.

Exit codes:
  0  verified (and, with --rpc, no figure differs; with --proofs, no read's proof failed; with
     --l1-rpc, the block proven from a root posted on Ethereum)
  1  not verified; this includes a document that is not JSON or holds no artifact, because
     what was published cannot be verified
  2  usage error, the file, URL, RPC or venue could not be read (network error, 10 s timeout,
     non-2xx), or the network document does not describe the RPC's chain
  3  pending: every other check passed, but the block is newer than every root posted on
     Ethereum (--l1-rpc); run again after the time it names`;

export type TrustSource =
  | { kind: "pinned"; signers: Address[] }
  | { kind: "binding"; source: string; operator: Address };

export type VerifyCommand =
  | { kind: "help" }
  | { kind: "report"; source: string; json: boolean; rederive: RederiveRequest }
  | {
      kind: "verify";
      source: string;
      trust: TrustSource;
      maxAgeSeconds: number | null;
      json: boolean;
      rederive: RederiveRequest | null;
    };

/** What `--rpc` asks for: the reader's RPC, the network document, the venue, and the proof checks' trust anchor. */
export type RederiveRequest = {
  rpc: string;
  /** The reader's venue endpoint; null: the network document's. */
  venue: string | null;
  /** The reader's Ethereum RPC (null: none). */
  ethereumRpc: string | null;
  venueNowMaxAgeSeconds: number;
  bracketTolerance: number;
  /** How long after its signed time a statement may be anchored on Base before it counts as back-dated. */
  anchorWindowSeconds: number;
  network: string | null;
  proofs: {
    blockHash: `0x${string}` | null;
    headerRpc: string | null;
    /** Trust only Ethereum: the reader's Ethereum RPC, and the Ethereum block hash they trust (null: its latest). */
    l1: { rpc: string; blockHash: `0x${string}` | null } | null;
  } | null;
};

function parseUrl(option: string, value: string): string {
  try {
    const u = new URL(value);
    if (u.protocol === "http:" || u.protocol === "https:") return value;
  } catch {
    // reported below
  }
  throw new UsageError(`${option}: not an http(s) URL: ${value}`);
}

function parseRederive(values: ReturnType<typeof parse>["values"]): RederiveRequest | null {
  const needsRpc = [
    "network",
    "proofs",
    "block-hash",
    "header-rpc",
    "l1-rpc",
    "l1-block-hash",
    "anchor-window",
    "venue",
    "ethereum-rpc",
    "venue-max-age",
    "bracket-tolerance",
  ].filter((k) => values[k as keyof typeof values]);
  if (values.rpc === undefined) {
    if (needsRpc.length > 0)
      throw new UsageError(`--${needsRpc[0]} needs --rpc <URL>: the RPC the figures are read from`);
    return null;
  }
  const rpc = parseUrl("--rpc", values.rpc);
  const anchors = ["block-hash", "header-rpc", "l1-rpc"].filter((k) => values[k as keyof typeof values]);
  if (anchors.length > 0 && anchors[0] !== "l1-rpc" && !values.proofs)
    throw new UsageError(`--${anchors[0]} is the trust anchor of --proofs`);
  if (anchors.length > 1) throw new UsageError("choose one trust anchor: --block-hash, --header-rpc or --l1-rpc");
  if (values["l1-block-hash"] !== undefined && values["l1-rpc"] === undefined)
    throw new UsageError("--l1-block-hash needs --l1-rpc <URL>: the Ethereum RPC the proofs below it come from");
  const hash32 = (option: string, v: string | undefined) => {
    if (v !== undefined && !/^0x[0-9a-fA-F]{64}$/.test(v))
      throw new UsageError(`${option}: 0x and 64 hex digits, got ${v}`);
    return (v?.toLowerCase() as `0x${string}` | undefined) ?? null;
  };
  const blockHash = hash32("--block-hash", values["block-hash"]);
  const l1BlockHash = hash32("--l1-block-hash", values["l1-block-hash"]);
  const window = values["anchor-window"];
  if (window !== undefined && (!/^\d{1,7}$/.test(window) || Number(window) === 0))
    throw new UsageError(`--anchor-window: a positive whole number of seconds, got ${window}`);
  const maxAge = values["venue-max-age"];
  if (maxAge !== undefined && !/^\d{1,7}$/.test(maxAge))
    throw new UsageError(`--venue-max-age: a whole number of seconds, got ${maxAge}`);
  const tolerance = values["bracket-tolerance"];
  if (tolerance !== undefined && !(/^\d*\.?\d+$/.test(tolerance) && Number(tolerance) < 1))
    throw new UsageError(`--bracket-tolerance: a fraction below 1 (0.01 is 1 %), got ${tolerance}`);
  return {
    rpc,
    venue: values.venue === undefined ? null : parseUrl("--venue", values.venue),
    ethereumRpc: values["ethereum-rpc"] === undefined ? null : parseUrl("--ethereum-rpc", values["ethereum-rpc"]),
    venueNowMaxAgeSeconds: maxAge === undefined ? VENUE_NOW_MAX_AGE_SECONDS : Number(maxAge),
    bracketTolerance: tolerance === undefined ? DEFAULT_BRACKET_TOLERANCE : Number(tolerance),
    anchorWindowSeconds: window === undefined ? ANCHOR_WINDOW_SECONDS : Number(window),
    network: values.network ?? null,
    proofs:
      values.proofs || values["l1-rpc"] !== undefined
        ? {
            blockHash,
            headerRpc: values["header-rpc"] === undefined ? null : parseUrl("--header-rpc", values["header-rpc"]),
            l1:
              values["l1-rpc"] === undefined
                ? null
                : { rpc: parseUrl("--l1-rpc", values["l1-rpc"]), blockHash: l1BlockHash },
          }
        : null,
  };
}

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
  if (values.report) return reportCommand(source, values);

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

  return { kind: "verify", source, trust, maxAgeSeconds, json: values.json ?? false, rederive: parseRederive(values) };
}

/** `--report`: an unsigned /api/por report, whose figures are re-derived; no one signed it, so no trust source. */
function reportCommand(source: string, values: ReturnType<typeof parse>["values"]): VerifyCommand {
  const signing = ["signer", "binding", "operator", "max-age", "no-freshness", "anchor-window"].filter(
    (k) => values[k as keyof typeof values] !== undefined,
  );
  if (signing.length > 0)
    throw new UsageError(
      `--${signing[0]} is about a signed statement; --report re-derives an unsigned report's figures (no signer, no anchor on Base)`,
    );
  const rederive = parseRederive(values);
  if (!rederive) throw new UsageError("--report needs --rpc <URL>: the RPC the figures are read from");
  return { kind: "report", source, json: values.json ?? false, rederive };
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
      rpc: { type: "string" },
      network: { type: "string" },
      proofs: { type: "boolean" },
      "block-hash": { type: "string" },
      "header-rpc": { type: "string" },
      "l1-rpc": { type: "string" },
      "l1-block-hash": { type: "string" },
      "anchor-window": { type: "string" },
      venue: { type: "string" },
      "ethereum-rpc": { type: "string" },
      "venue-max-age": { type: "string" },
      "bracket-tolerance": { type: "string" },
      report: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
}
