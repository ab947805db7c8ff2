/**
 * The two ways the verify CLI can fail to reach a verdict. Both map to exit code 2, kept apart
 * from exit code 1 ("the artifact does not verify") so a script can tell a bad artifact from a
 * bad invocation or an unreachable source.
 */

/** The command line is wrong: missing or conflicting options, a malformed address or number. */
export class UsageError extends Error {
  override name = "UsageError";
  constructor(message: string) {
    super(message);
  }
}

/** A file could not be read or a URL could not be fetched (network error, timeout, non-2xx). */
export class SourceError extends Error {
  override name = "SourceError";
  constructor(message: string, readonly details: { source: string; status?: number; cause?: unknown }) {
    super(message);
  }
}
