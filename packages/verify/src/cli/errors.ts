/**
 * The two ways the verify CLI can fail to reach a verdict. Both map to exit code 2, kept apart
 * from exit code 1 ("the artifact does not verify") so a script can tell a bad artifact from a
 * bad invocation or an unreachable source.
 */
import { KusdError } from "@kusd/core";

/** The command line is wrong: missing or conflicting options, a malformed address or number. */
export class UsageError extends KusdError {
  override name = "UsageError";
  readonly code: string = "usage";
}

/** A file could not be read or a URL could not be fetched (network error, timeout, non-2xx). */
export class SourceError extends KusdError<{ source: string; status?: number; cause?: unknown }> {
  override name = "SourceError";
  readonly code: string = "source_unreachable";
}
