/**
 * `kusd-verify`: verifies a published signed artifact from a URL or file. Pure apart from the
 * injected I/O, so tests drive it in-process; it never throws. Exit codes: 0 verified,
 * 1 not verified (fail-closed: anything short of every check passing), 2 usage or I/O error,
 * 3 pending (every check passed but the block is newer than every root posted on Ethereum).
 */
import { pinnedTrust, type Trust, trustFromBinding, verifyTrusted } from "@kusd/core";
import { parseVerifyArgs, type RederiveRequest, type TrustSource, USAGE } from "./args.js";
import { rederiveStep, reportStep } from "./rederive-step.js";
import { type Check, formatError, formatJson, formatText, isPending, type VerifyReport } from "./report.js";
import { loadSource, locateArtifact, type SourceIo } from "./source.js";

export type VerifyIo = SourceIo & {
  /** Current unix time in seconds, for the freshness check. */
  now?: number;
};

export type VerifyOutcome = { exitCode: 0 | 1 | 2 | 3; output: string };

const exitOf = (report: VerifyReport): 0 | 1 | 3 => (report.verified ? 0 : isPending(report) ? 3 : 1);

export async function runVerify(argv: string[], io: VerifyIo = {}): Promise<VerifyOutcome> {
  // Known before parsing, so even a usage error comes back as JSON when JSON was asked for.
  const json = argv.includes("--json");
  try {
    const command = parseVerifyArgs(argv);
    if (command.kind === "help") return { exitCode: 0, output: `${USAGE}\n` };
    if (command.kind === "report") {
      const report = await reportStep(command.source, await loadSource(command.source, io), command.rederive, io.now);
      return { exitCode: exitOf(report), output: command.json ? formatJson(report) : formatText(report) };
    }
    // Read every source before judging: an unreadable binding is exit 2 whatever the artifact holds.
    const [artifactText, bindingText] = await Promise.all([
      loadSource(command.source, io),
      command.trust.kind === "binding" ? loadSource(command.trust.source, io) : Promise.resolve(null),
    ]);
    const trust = await resolveTrust(command.trust, bindingText);
    const judged = await judge(command.source, artifactText, trust, command.maxAgeSeconds, io.now);
    const report = command.rederive
      ? await withRederivation(judged, artifactText, command.rederive, trust, io.now)
      : judged;
    return { exitCode: exitOf(report), output: command.json ? formatJson(report) : formatText(report) };
  } catch (error) {
    // UsageError and SourceError by design; anything else is a bug, and still not a verdict.
    const e = error instanceof Error ? error : new Error(String(error));
    const shown =
      e.name === "UsageError" || e.name === "SourceError" || e.name === "NetworkMismatchError"
        ? e
        : { name: "InternalError", message: `internal error, nothing verified: ${e.message}` };
    return { exitCode: 2, output: formatError(shown, json) };
  }
}

type DescribedTrust = Trust & { describe: string };

/** The signers to accept, as a function of the artifact's signed time. */
async function resolveTrust(trust: TrustSource, bindingText: string | null): Promise<DescribedTrust> {
  if (trust.kind === "pinned") {
    return {
      describe: `pinned signer${trust.signers.length > 1 ? "s" : ""} ${trust.signers.join(", ")}`,
      ...pinnedTrust(trust.signers),
    };
  }
  const describe = `signer binding ${trust.source}, which must be signed by operator ${trust.operator}`;
  // A binding that fails leaves no trusted signer, so the artifact cannot verify either.
  const refused = (checks: Check[]): DescribedTrust => ({
    describe,
    trustedSigner: () => [],
    checks,
    bindingHash: null,
  });
  const located = locateArtifact(bindingText ?? "");
  if (!located.ok) return refused([{ name: "binding", ok: false, detail: located.reason }]);
  return { describe, ...(await trustFromBinding(located.artifact, trust.operator)) };
}

async function judge(
  source: string,
  artifactText: string,
  trust: DescribedTrust,
  maxAgeSeconds: number | null,
  now: number | undefined,
): Promise<VerifyReport> {
  const freshness = maxAgeSeconds === null ? "not checked (--no-freshness)" : `signed at most ${maxAgeSeconds} s ago`;
  const base = { source, trust: trust.describe, freshness, notes: [] as string[] };

  const located = locateArtifact(artifactText);
  if (!located.ok) {
    const checks = [...trust.checks, { name: "artifact", ok: false, detail: located.reason }];
    return { ...base, verified: false, checks, recovered: null, signedAt: null, payloadText: null };
  }
  const result = await verifyTrusted(located.artifact, trust, { maxAgeSeconds, now });
  const { checks, verified } = result;

  const notes: string[] = [];
  if (located.path !== "$")
    notes.push(`artifact found at ${located.path}; the rest of the document is not covered by the signature`);
  if (located.unsignedFields.length > 0)
    notes.push(
      `fields beside the signed payload are not covered by the signature: ${located.unsignedFields.join(", ")}`,
    );

  return {
    ...base,
    notes,
    verified,
    checks,
    recovered: result.recovered,
    signedAt: result.signedAt,
    payloadText: verified ? publishedPayload(located.artifact) : null,
  };
}

/** The published payload text; verified implies it parsed, checked again because it is spliced into JSON output. */
function publishedPayload(artifact: Record<string, unknown>): string | null {
  const text = artifact.signed_payload_canonical;
  if (typeof text !== "string") return null;
  try {
    JSON.parse(text);
    return text;
  } catch {
    return null;
  }
}

/**
 * The verdict with the statement's figures re-derived (--rpc): verified only when the signature
 * verified and every re-derivation check passed. Re-derived whatever the signature said, so a
 * reader sees the figures of a statement that fails either way.
 */
async function withRederivation(
  report: VerifyReport,
  artifactText: string,
  r: RederiveRequest,
  trust: Trust,
  now: number | undefined,
): Promise<VerifyReport> {
  const located = locateArtifact(artifactText);
  const text = located.ok ? located.artifact.signed_payload_canonical : null;
  let parses = false;
  try {
    parses = typeof text === "string" && typeof JSON.parse(text) === "object";
  } catch {
    parses = false;
  }
  if (!parses) {
    const checks = [...report.checks, { name: "figures", ok: false, detail: "no signed payload to re-derive" }];
    return { ...report, verified: false, checks };
  }
  const signedAt = (JSON.parse(text as string) as { timestamp?: unknown }).timestamp;
  const authorised = typeof signedAt === "number" ? trust.trustedSigner(signedAt) : [];
  const rederivation = await rederiveStep(r, text as string, located.ok ? located.artifact : null, authorised, now);
  return {
    ...report,
    verified: report.verified && rederivation.checks.every((c) => c.ok),
    checks: [...report.checks, ...rederivation.checks],
    rederivation,
  };
}
