/**
 * Whether an error means the database cannot be reached now (stopped, restarting, unreachable,
 * connections cut), as opposed to a query that is wrong. The first is a 503 the caller may retry;
 * the second stays a bug. Drivers differ: pg (Ponder's pool) and postgres.js (the operator store
 * and the replica) signal it by a socket error code, a PostgreSQL SQLSTATE of class 08 or 57P, or
 * only a message; the error may be wrapped (OperatorStoreError's cause, AggregateError of each
 * address tried).
 */
const SOCKET_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);
/** postgres.js's own codes for a connection that is gone or never came. */
const DRIVER_CODES = new Set(["CONNECTION_CLOSED", "CONNECTION_ENDED", "CONNECTION_DESTROYED", "CONNECT_TIMEOUT"]);
/** SQLSTATE: connection exceptions (08xxx); admin/crash shutdown and "cannot connect now" (57P01–57P03). */
const SQLSTATE = /^(08\d{3}|57P0[123])$/;
const MESSAGES = [
  /connection terminated/i,
  /terminating connection due to administrator command/i,
  /the database system is (shutting down|starting up|in recovery mode)/i,
  /timeout exceeded when trying to connect/i,
  /connection to client lost/i,
  /Client has encountered a connection error/i,
];

export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (depth > 8 || typeof error !== "object" || error === null) return false;
  const e = error as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e.code === "string" && (SOCKET_CODES.has(e.code) || DRIVER_CODES.has(e.code) || SQLSTATE.test(e.code)))
    return true;
  if (typeof e.message === "string" && MESSAGES.some((m) => m.test(e.message as string))) return true;
  if (Array.isArray(e.errors) && e.errors.some((x) => isDatabaseUnavailable(x, depth + 1))) return true;
  return isDatabaseUnavailable(e.cause, depth + 1);
}

/** Seconds a client should wait before retrying while the database is down. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;
