/**
 * What every repository of the operator store shares: the database handle, and the runner each
 * operation goes through, so that a closed store and a driver failure both surface as an
 * OperatorStoreError naming the operation and where the store is (never the URL).
 */

import { KusdError } from "@kusd/core";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";

export type Db = PgDatabase<PgQueryResultHKT>;

export class OperatorStoreError extends KusdError<Record<string, unknown>> {
  override name = "OperatorStoreError";
  readonly code: string = "operator_store_failed";
  constructor(message: string, details: Record<string, unknown> = {}, options?: { cause?: unknown }) {
    super(message, details, options);
  }
}

/** Runs one named operation of the store. */
export type Run = <T>(op: string, fn: () => Promise<T>) => Promise<T>;

/** The runner of a store at `where` (backend, schema, directory), refusing once `isClosed()`. */
export function createRun(where: Record<string, unknown>, isClosed: () => boolean): Run {
  return async <T>(op: string, fn: () => Promise<T>): Promise<T> => {
    if (isClosed()) throw new OperatorStoreError("operator store is closed", { ...where, op });
    try {
      return await fn();
    } catch (cause) {
      if (cause instanceof OperatorStoreError) throw cause;
      throw new OperatorStoreError(`operator store ${op} failed`, { ...where, op }, { cause });
    }
  };
}
