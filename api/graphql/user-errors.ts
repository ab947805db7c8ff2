/**
 * A query's refusals as GraphQL errors: the caller's mistakes (QueryInputError, a 4xx ApiError)
 * as BAD_USER_INPUT with the same reason and details the REST routes give, the indexer not ready
 * as UNAVAILABLE. Made with yoga's own error class, which yoga never masks (see limits.ts).
 */
import { createGraphQLError } from "graphql-yoga";
import { ApiError } from "../http/errors.js";
import { QueryInputError } from "./query/query-error.js";

export function userError(e: unknown): Error | null {
  if (e instanceof QueryInputError)
    return createGraphQLError(e.message, { extensions: { code: "BAD_USER_INPUT", reason: e.code, ...e.details } });
  if (e instanceof ApiError)
    return createGraphQLError(e.message, {
      extensions: { code: e.status < 500 ? "BAD_USER_INPUT" : "UNAVAILABLE", reason: e.code, ...e.details },
    });
  return null;
}

export async function asUserErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    throw userError(e) ?? e;
  }
}
