/**
 * Reading a published document (http(s) URL or file) and finding the signed artifact in it.
 * Reading failures are SourceErrors (exit 2: nothing was judged); what the bytes contain is
 * judged later, so a document that is not JSON is a failed verification, not an error here.
 */
import { readFile as fsReadFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { SourceError, UsageError } from "./errors.js";

export const FETCH_TIMEOUT_MS = 10_000;

export type SourceIo = {
  fetch?: typeof fetch;
  readFile?: (path: string) => Promise<string>;
  /** Overrides FETCH_TIMEOUT_MS (tests). */
  fetchTimeoutMs?: number;
};

const SCHEME = /^([a-z][a-z0-9+.-]*):\/\//i;

/** The document's text exactly as served or stored (UTF-8). */
export async function loadSource(source: string, io: SourceIo): Promise<string> {
  const scheme = SCHEME.exec(source)?.[1]?.toLowerCase();
  if (scheme === "http" || scheme === "https") return fetchText(source, io);
  if (scheme !== undefined && scheme !== "file")
    throw new UsageError(`unsupported URL scheme ${scheme}: use http(s), file: or a path`);
  const path = scheme === "file" ? fileURLToPath(source) : source;
  const readFile = io.readFile ?? ((p: string) => fsReadFile(p, "utf8"));
  try {
    return await readFile(path);
  } catch (cause) {
    throw new SourceError(`cannot read ${path}: ${describe(cause)}`, { source, cause });
  }
}

async function fetchText(url: string, io: SourceIo): Promise<string> {
  const doFetch = io.fetch ?? fetch;
  const timeoutMs = io.fetchTimeoutMs ?? FETCH_TIMEOUT_MS;
  try {
    // The signal also bounds reading the body, not just the response headers.
    const response = await doFetch(url, {
      signal: AbortSignal.timeout(timeoutMs),
      headers: { accept: "application/json" },
    });
    if (!response.ok) {
      throw new SourceError(
        `GET ${url}: HTTP ${response.status}${response.status === 402 ? " (payment required: save the paid response and verify the file)" : ""}`,
        {
          source: url,
          status: response.status,
        },
      );
    }
    return await response.text();
  } catch (cause) {
    if (cause instanceof SourceError) throw cause;
    const timedOut = cause instanceof Error && cause.name === "TimeoutError";
    throw new SourceError(`GET ${url}: ${timedOut ? `no complete response within ${timeoutMs} ms` : describe(cause)}`, {
      source: url,
      cause,
    });
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    // fetch wraps the socket error ("fetch failed"); the cause says what actually happened.
    const cause = (error as Error & { cause?: unknown }).cause;
    return cause instanceof Error ? `${error.message} (${cause.message})` : error.message;
  }
  return String(error);
}

export type Located =
  | { ok: true; artifact: Record<string, unknown>; path: string; unsignedFields: string[] }
  | { ok: false; reason: string };

const ARTIFACT_FIELDS = ["attestation_hash", "signature", "signer", "signed_payload_canonical"];
const MAX_DEPTH = 4;

/**
 * Parses the document and finds the artifact: the top level if it carries
 * `signed_payload_canonical`, else the only nested object that does. Two candidates are
 * refused rather than picking one, since the report would then vouch for an arbitrary part.
 */
export function locateArtifact(text: string): Located {
  let document: unknown;
  try {
    // A leading BOM is an editor artefact of the outer document, not part of the signed string.
    document = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (error) {
    return { ok: false, reason: `the document is not JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (!isObject(document)) return { ok: false, reason: "the document is not a JSON object" };
  if ("signed_payload_canonical" in document) return found(document, "$");

  const candidates: { value: Record<string, unknown>; path: string }[] = [];
  const walk = (value: unknown, path: string, depth: number) => {
    if (depth > MAX_DEPTH || typeof value !== "object" || value === null) return;
    if (!Array.isArray(value) && "signed_payload_canonical" in value) {
      candidates.push({ value: value as Record<string, unknown>, path });
      return;
    }
    for (const [key, child] of Object.entries(value))
      walk(child, Array.isArray(value) ? `${path}[${key}]` : `${path}.${key}`, depth + 1);
  };
  for (const [key, child] of Object.entries(document)) walk(child, `$.${key}`, 1);

  if (candidates.length === 0)
    return { ok: false, reason: `no signed artifact in the document (looked for ${ARTIFACT_FIELDS.join(", ")})` };
  if (candidates.length > 1)
    return {
      ok: false,
      reason: `more than one signed artifact in the document (${candidates.map((c) => c.path).join(", ")}): point to one`,
    };
  return found(candidates[0]!.value, candidates[0]!.path);
}

function found(artifact: Record<string, unknown>, path: string): Located {
  const unsignedFields = Object.keys(artifact).filter((k) => !ARTIFACT_FIELDS.includes(k));
  return { ok: true, artifact, path, unsignedFields };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
