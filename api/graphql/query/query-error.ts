/**
 * The caller's mistake in a query over an entity (a filter, an order, a cursor, a page size, a
 * block): GraphQL answers it as BAD_USER_INPUT, the exports as a 400, each with the same code
 * and details (the argument, and the limit when one was exceeded).
 */
import { KusdError } from "@kusd/core";

/** The codes of a caller's mistake in an entity query (api/http/error-codes.ts has each). */
export type QueryInputCode =
  | "invalid_argument"
  | "limit_exceeded"
  | "block_not_canonical"
  | "block_not_indexed"
  | "no_registry_version";

export type QueryInputDetails = { argument: string; limit?: number; [key: string]: unknown };

export class QueryInputError extends KusdError<QueryInputDetails> {
  override name = "QueryInputError";
  constructor(
    readonly code: QueryInputCode,
    message: string,
    details: QueryInputDetails,
  ) {
    super(message, details);
  }
}

export const invalid = (argument: string, message: string, extra: Record<string, unknown> = {}) =>
  new QueryInputError("invalid_argument", message, { argument, ...extra });

export const overLimit = (argument: string, message: string, limit: number) =>
  new QueryInputError("limit_exceeded", message, { argument, limit });
