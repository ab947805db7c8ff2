/**
 * Where each client's spent points are kept (rate-limiter-flexible, a fixed window per client),
 * chosen from what the process has: Redis when KUSD_RATE_LIMIT_REDIS_URL is set; else the
 * PostgreSQL of DATABASE_URL, which the API processes of a deployment already share (table
 * `rate_limit` in the operator store's schema, created at start, rows of ended windows deleted an
 * hour later); else this process's memory (one process: `npm start` on PGlite). Each count is one
 * atomic statement of the store (an upsert, a Lua script), so N processes share one limit.
 *
 * The limits fail open: a store that errs, or answers slower than STORE_TIMEOUT_MS, leaves the
 * request uncounted and served (the failure is counted on /metrics), never answered 5xx. A client
 * over its budget is refused from this process's memory until its window ends, without asking the
 * store again: a flood costs the store one statement per window per process.
 */

import { Redis } from "ioredis";
import pg from "pg";
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRedis,
  RateLimiterRes,
  RLWrapperTimeouts,
} from "rate-limiter-flexible";
import type { Policy } from "./headers.js";

export type StoreKind = "memory" | "postgres" | "redis";

export type StoreOptions = Policy & {
  /** PostgreSQL shared by the API processes (DATABASE_URL). */
  databaseUrl?: string;
  /** Redis shared by the API processes; wins over PostgreSQL. */
  redisUrl?: string;
  /** The PostgreSQL schema of the table (an identifier the configuration checked: it is quoted, not bound). */
  schema: string;
};

export type Consumed =
  | { outcome: "allowed" | "refused"; remaining: number; msBeforeNext: number }
  | { outcome: "failed"; error: unknown };

export type RateLimitStore = {
  kind: StoreKind;
  policy: Policy;
  /** Spends `points` of the client's budget: allowed, refused (over budget), or failed (not counted). */
  consume(key: string, points: number): Promise<Consumed>;
  close(): Promise<void>;
};

/** A count slower than this serves the request uncounted: a slow store must not slow every answer. */
export const STORE_TIMEOUT_MS = 250;
/** After the table could not be created (PostgreSQL down at start), how long before it is tried again. */
export const REOPEN_AFTER_MS = 5_000;
/** The table, in the configured schema. */
export const TABLE = "rate_limit";
const KEY_PREFIX = "kusd";

export function storeKind(o: Pick<StoreOptions, "databaseUrl" | "redisUrl">): StoreKind {
  return o.redisUrl ? "redis" : o.databaseUrl ? "postgres" : "memory";
}

type Common = { points: number; duration: number; keyPrefix: string; inMemoryBlockOnConsumed: number };

export function openRateLimitStore(o: StoreOptions): RateLimitStore {
  const policy = { points: o.points, windowSeconds: o.windowSeconds };
  const common: Common = {
    points: o.points,
    duration: o.windowSeconds,
    keyPrefix: KEY_PREFIX,
    // Over budget, a key is refused from memory until its window ends.
    inMemoryBlockOnConsumed: o.points,
  };
  const kind = storeKind(o);
  if (kind === "redis") {
    // Commands fail at once while Redis is away instead of queueing; ioredis reconnects by itself.
    const redis = new Redis(o.redisUrl!, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2_000 });
    redis.on("error", () => {}); // each count that fails meanwhile is counted on /metrics
    const limiter = timed(new RateLimiterRedis({ ...common, storeClient: redis, rejectIfRedisNotReady: true }));
    return {
      kind,
      policy,
      consume: (key, points) => consume(limiter, key, points),
      close: () =>
        redis.quit().then(
          () => {},
          () => redis.disconnect(),
        ),
    };
  }
  if (kind === "postgres") return postgresStore(o, common, policy);
  const limiter = new RateLimiterMemory(common);
  return { kind, policy, consume: (key, points) => consume(limiter, key, points), close: async () => {} };
}

function postgresStore(o: StoreOptions, common: Common, policy: Policy): RateLimitStore {
  const pool = new pg.Pool({
    connectionString: o.databaseUrl,
    max: 4,
    connectionTimeoutMillis: 2_000,
    application_name: "kusd-rate-limit",
  });
  pool.on("error", () => {}); // an idle connection lost: the next count opens another
  let opened: RateLimiterAbstract | null = null;
  let opening: Promise<RateLimiterAbstract> | null = null;
  let failedAt = Number.NEGATIVE_INFINITY;
  const open = () => {
    opening ??= createSchema(pool, o.schema)
      .then(
        () =>
          new Promise<RateLimiterAbstract>((resolve, reject) => {
            const limiter = new RateLimiterPostgres(
              { ...common, storeClient: pool, storeType: "pool", schemaName: o.schema, tableName: TABLE },
              (e?: Error) => (e ? reject(e) : resolve(timed(limiter))),
            );
          }),
      )
      .then((limiter) => {
        if (failedAt > Number.NEGATIVE_INFINITY)
          console.warn(`[rate-limit] table ${o.schema}.${TABLE} ready: counting again`);
        opened = limiter;
        return limiter;
      })
      .catch((e: unknown) => {
        if (failedAt === Number.NEGATIVE_INFINITY)
          console.warn(
            `[rate-limit] table ${o.schema}.${TABLE} could not be created (${(e as Error).message}): requests are served uncounted until it can (retried every ${REOPEN_AFTER_MS / 1000} s)`,
          );
        opening = null;
        failedAt = Date.now();
        throw e;
      });
    return opening;
  };
  open().catch(() => {}); // created at start; a count before it is ready waits for it (bounded)
  return {
    kind: "postgres",
    policy,
    async consume(key, points) {
      if (opened) return consume(opened, key, points);
      if (!opening && Date.now() - failedAt < REOPEN_AFTER_MS)
        return { outcome: "failed", error: new Error("the rate limit table could not be created") };
      try {
        return consume(await within(open(), STORE_TIMEOUT_MS), key, points);
      } catch (error) {
        return { outcome: "failed", error };
      }
    },
    close: () => pool.end(),
  };
}

/** The operator store's rule for its schema's name (api/store/operator-store.ts): it is written into SQL. */
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** The schema (the table is the library's); two processes starting at once may both create it. */
async function createSchema(pool: pg.Pool, schema: string): Promise<void> {
  if (!SCHEMA_NAME.test(schema)) throw new Error(`invalid schema name ${JSON.stringify(schema)}`);
  try {
    await pool.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
  } catch (e) {
    // 23505 / 42P06: another process created it between the check and the insert
    if (!["23505", "42P06"].includes((e as { code?: string }).code ?? "")) throw e;
  }
}

const timed = (limiter: RateLimiterAbstract) => new RLWrapperTimeouts({ limiter, timeoutMs: STORE_TIMEOUT_MS });

async function consume(limiter: RateLimiterAbstract, key: string, points: number): Promise<Consumed> {
  try {
    const res = await limiter.consume(key, points);
    return { outcome: "allowed", remaining: res.remainingPoints, msBeforeNext: res.msBeforeNext };
  } catch (e) {
    if (e instanceof RateLimiterRes)
      return { outcome: "refused", remaining: e.remainingPoints, msBeforeNext: e.msBeforeNext };
    return { outcome: "failed", error: e };
  }
}

function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the rate limit store did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
