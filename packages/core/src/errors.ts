/**
 * The one error base of the project: every error we throw on purpose carries a stable `code`
 * (a string clients and tests can match on), a short message, and structured `details`. Where
 * it surfaces decides the rest: the HTTP edge maps codes to statuses, the CLIs to exit codes.
 */
export abstract class KusdError<D extends object = Record<string, unknown>> extends Error {
  abstract readonly code: string;
  readonly details: D;

  constructor(message: string, details: D = {} as D, options?: { cause?: unknown }) {
    super(message, options);
    this.details = details;
  }
}
