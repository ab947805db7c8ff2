/**
 * Which reader request a call is made for, and whether the reader budget refused one of its calls.
 * A request runs in a scope (AsyncLocalStorage); a refusal marks the scope that met it, so the
 * request answers "retry later" as a whole rather than a report with the refused figures null:
 * reports tolerate a failed read (null, named in `failedReads`), and a refusal must not pass for
 * one.
 *
 * A refusal is met where it was made (the budget's gate), where a chain client hands it back
 * (`observeRefusals`: the reads of several requests can travel in one Multicall3 aggregate3 or
 * JSON-RPC batch, sent in the context of whichever asked first), and where a shared build ends
 * (`shareRefusals`: a cache's build that met one fails, for the request that started it and every
 * request that waited for it, and is not kept).
 */
import { AsyncLocalStorage } from "node:async_hooks";

/** What the scope's venue requests to `url` draw on (absent: venue requests are not budgeted). */
export type VenueGate = { url: string; take(weight: number): Promise<void> };

export type ReaderScope = {
  /** The first refusal met in this scope. */
  refusal: Error | null;
  /** When the request stops waiting for the budget (ms since the epoch), shared with its builds: set at the first wait. */
  readonly wait: { until: number | null };
  readonly venue: VenueGate | null;
  /**
   * Reads only this request needs (a report at a past block, a tool call, a GraphQL query): they
   * leave the budget's reserve to what every reader shares, the reports at the head.
   */
  readonly own: boolean;
};

// One store per process, whichever module graph asks (Ponder loads the API in a graph of its own).
const STORE = Symbol.for("kusd.readerScope");
const REFUSALS = Symbol.for("kusd.readerRefusals");
const holder = globalThis as { [STORE]?: AsyncLocalStorage<ReaderScope>; [REFUSALS]?: WeakSet<Error> };
holder[STORE] ??= new AsyncLocalStorage<ReaderScope>();
holder[REFUSALS] ??= new WeakSet<Error>();
const scopes = holder[STORE];
const refusals = holder[REFUSALS];

export const currentReaderScope = (): ReaderScope | undefined => scopes.getStore();

/** Runs `work` as one reader request; resolves to its scope once the work has settled. */
export async function inReaderRequest(
  work: () => Promise<unknown>,
  o: { venue?: VenueGate | null; own?: boolean } = {},
) {
  const scope: ReaderScope = { refusal: null, wait: { until: null }, venue: o.venue ?? null, own: o.own ?? false };
  await scopes.run(scope, work);
  return scope;
}

/** Marks `error` as a refusal of the reader budget (recognised however deep a client wraps it). */
export function registerRefusal<E extends Error>(error: E): E {
  refusals.add(error);
  return error;
}

/** The budget's refusal in `error` or its causes, or null. */
export function readerRefusal(error: unknown): Error | null {
  let e = error;
  for (let depth = 0; depth < 16 && e instanceof Error; depth++, e = e.cause) if (refusals.has(e)) return e;
  return null;
}

/** Marks the current scope as refused (the first refusal stands). */
export function noteRefusal(refusal: Error): void {
  const scope = scopes.getStore();
  if (scope && !scope.refusal) scope.refusal = refusal;
}

/** A refusal among a multicall's per-call results (`{ status: "failure", error }`). */
function refusalInResult(value: unknown): Error | null {
  if (!Array.isArray(value)) return null;
  for (const r of value) {
    const refusal = typeof r === "object" && r !== null && "error" in r ? readerRefusal(r.error) : null;
    if (refusal) return refusal;
  }
  return null;
}

const isThenable = (v: unknown): v is Promise<unknown> =>
  typeof v === "object" && v !== null && typeof (v as { then?: unknown }).then === "function";

/**
 * A chain client whose every answer is checked, in the caller's own context, for a refusal made
 * on its behalf (a failed multicall slot or a rejected action): the caller's scope is marked.
 */
export function observeRefusals<T extends object>(client: T): T {
  const wrapped = new Map<PropertyKey, unknown>();
  return new Proxy(client, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== "function") return value;
      if (!wrapped.has(property))
        wrapped.set(property, (...args: unknown[]) => {
          const result = (value as (...a: unknown[]) => unknown).apply(target, args);
          if (!isThenable(result)) return result;
          return result.then(
            (v) => {
              const refusal = refusalInResult(v);
              if (refusal) noteRefusal(refusal);
              return v;
            },
            (e: unknown) => {
              const refusal = readerRefusal(e);
              if (refusal) noteRefusal(refusal);
              throw e;
            },
          );
        });
      return wrapped.get(property);
    },
  });
}

type Build = () => Promise<unknown>;

/**
 * Every `(key, build)` function in `caches` (at any depth; other functions and values pass
 * through) with its builds run in a scope of their own: a build that met a refusal fails with
 * it, and each caller, the one that started it and those that waited for it, is marked.
 */
export function shareRefusals<T extends object>(caches: T): T {
  return wrapKeepers(caches, (build) => {
    const parent = scopes.getStore();
    const scope: ReaderScope = {
      refusal: null,
      wait: parent?.wait ?? { until: null },
      venue: parent?.venue ?? null,
      own: parent?.own ?? false,
    };
    return scopes.run(scope, async () => {
      const value = await build();
      if (scope.refusal) throw scope.refusal;
      return value;
    });
  });
}

/**
 * Every `(key, build)` function in `caches` with its builds run outside any reader request: the
 * operator's own work (the statements' reports), which a reader's request may start but never pays for.
 */
export function outsideReaderRequests<T extends object>(caches: T): T {
  return wrapKeepers(caches, (build) => scopes.exit(build));
}

function wrapKeepers<T extends object>(caches: T, run: (build: Build) => Promise<unknown>): T {
  const made = new WeakMap<object, unknown>();
  // Plain objects only are walked: a class instance (an LRU's private fields) is left as it is.
  const plain = (v: unknown): v is object =>
    typeof v === "object" && v !== null && [Object.prototype, null].includes(Object.getPrototypeOf(v));
  const wrap = (value: unknown): unknown => {
    if (typeof value !== "function" && !plain(value)) return value;
    if (!made.has(value)) made.set(value, typeof value === "function" ? keeper(value as Keeper) : object(value));
    return made.get(value);
  };
  const object = (o: object) => new Proxy(o, { get: (t, p, r) => wrap(Reflect.get(t, p, r)) });
  const keeper = (f: Keeper) =>
    new Proxy(f, {
      apply(target, self, args: unknown[]) {
        const [key, build] = args;
        if (typeof build !== "function") return Reflect.apply(target, self, args);
        const shared = Reflect.apply(target, self, [key, () => run(build as Build)]) as unknown;
        if (!isThenable(shared)) return shared;
        const observed = shared.then(undefined, (e: unknown) => {
          const refusal = readerRefusal(e);
          if (refusal) noteRefusal(refusal);
          throw e;
        });
        // A caller that does not wait (a warm-up) must not turn a refusal into an unhandled rejection.
        observed.catch(() => {});
        return observed;
      },
    });
  return wrap(caches) as T;
}

type Keeper = (...args: unknown[]) => unknown;
