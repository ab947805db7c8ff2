/**
 * Answers to the same query over the same indexed state are computed once. An operation whose
 * root fields read only indexed tables is a function of the indexed state, so its result is kept
 * under (document, operation name, variables, the indexed state's fingerprint: io/indexed-version):
 * a new block, a reorg or a rollback is a new key, and nothing needs invalidating. Root fields
 * that read something else (the venue, the chain's head, the statement store) are only shared
 * between identical requests in flight. A result with errors is never kept, nor one whose state
 * changed while it was computed.
 *
 * Two levels share the key's parts. The plugin keeps execution results. `answer` keeps the
 * HTTP answer's bytes under the request's own bytes (method, Accept, body or query string) and the
 * same fingerprint, so a repeated request is answered without parsing, validating, costing or
 * serialising it again. It keeps only an answer the plugin served from its own cache (the second
 * identical request): that answer's `extensions.sqlQueries` is 0, which is true of every later one.
 * An answer from the kept bytes says so with `X-Cache: HIT`.
 */
import { createHash } from "node:crypto";
import { type DocumentNode, type ExecutionArgs, Kind, type OperationDefinitionNode, print } from "graphql";
import type { Plugin } from "graphql-yoga";
import { LRUCache } from "lru-cache";
import type { ReportContext } from "../context.js";
import { type CacheSizes, lruSize } from "../io/cache-sizes.js";
import { readIndexedVersion } from "../io/indexed-version.js";
import { coalesce, memo } from "../io/memo.js";
import { INDEXED_HEAD_FRESH_MS } from "../report-caches.js";
import type { GraphQLContext } from "./builder.js";

export type ResponseCacheOptions = {
  /** Root fields whose answer is a function of the indexed state alone. */
  cacheable: ReadonlySet<string>;
  /** Bytes of execution results kept, each weighed as its JSON (an LRU by size; default 16 MiB). */
  maxResultBytes?: number;
  /** Bytes of HTTP answers kept (an LRU by size; default 16 MiB). */
  maxAnswerBytes?: number;
};

export type ResponseCache = {
  plugin: Plugin<GraphQLContext>;
  /** Answers `request` from the kept bytes, or through `run` (yoga), keeping what may be kept. */
  answer: (request: Request, run: (request: Request) => Promise<Response>) => Promise<Response>;
  /** What both levels hold, for /metrics. */
  sizes: CacheSizes;
};

type Answer = { status: number; headers: [string, string][]; body: string };

type Result = { errors?: readonly unknown[] } & Record<string | symbol, unknown>;

/** Marks a result whose indexed state moved while it ran (not kept). */
const UNSETTLED = Symbol("unsettled");

export function responseCache(reports: ReportContext, options: ResponseCacheOptions): ResponseCache {
  const kept = memo<Result>({
    maxBytes: options.maxResultBytes ?? DEFAULT_BYTES,
    sizeOf: jsonBytes,
    keep: (r) => !r.errors?.length && !(UNSETTLED in r),
  });
  const inFlight = coalesce<Result>();
  // The fingerprint is read at most every 100 ms, as reports read the head (headFreshMs 0: shared
  // only between requests in flight): under load the per-request read was the cost on PGlite.
  const readVersion =
    reports.headFreshMs > 0
      ? memo<string | null>({
          max: 1,
          ttlMs: Math.min(reports.headFreshMs, INDEXED_HEAD_FRESH_MS),
          keep: (v) => v !== null,
        })
      : coalesce<string | null>();
  const indexedVersion = () => readVersion("version", () => readIndexedVersion(reports.db));
  const printed = new WeakMap<DocumentNode, string>();
  const textOf = (doc: DocumentNode) => {
    const known = printed.get(doc);
    if (known !== undefined) return known;
    const text = print(doc);
    printed.set(doc, text);
    return text;
  };

  // Requests whose result the plugin served from `kept`, with the fingerprint it was kept under.
  const servedFromCache = new WeakMap<Request, string>();
  const answers = new LRUCache<string, Answer>({
    maxSize: options.maxAnswerBytes ?? DEFAULT_BYTES,
    sizeCalculation: (a) => a.body.length + 256,
  });

  const plugin: Plugin<GraphQLContext> = {
    onExecute: ({ args, executeFn, setExecuteFn }) => {
      const operation = operationOf(args);
      if (operation?.operation !== "query") return;
      const immutable = operation.selectionSet.selections.every(
        (s) => s.kind === Kind.FIELD && (s.name.value === "__typename" || options.cacheable.has(s.name.value)),
      );
      const variables = serialised(args.variableValues ?? {});
      // Variables too deep to serialise are refused by the limits; never key (or crash) on them.
      if (variables === null) return;
      const request = createHash("sha256")
        .update(textOf(args.document))
        .update("\0")
        .update(args.operationName ?? "")
        .update("\0")
        .update(variables)
        .digest("base64url");
      setExecuteFn(async (a) => {
        const run = () => Promise.resolve(executeFn(a)) as Promise<Result>;
        if (!immutable) return inFlight(request, run);
        const version = await indexedVersion();
        // Without a fingerprint a reorg could not be told apart: share in-flight work only.
        if (!version) return inFlight(request, run);
        let computed = false;
        const result = await kept(`${request}:${version}`, async () => {
          computed = true;
          const result = await run();
          // Computed across a change: right for the request, not for the key it started under.
          if ((await indexedVersion()) !== version) return { ...result, [UNSETTLED]: true };
          return result;
        });
        const http = (a.contextValue as { request?: Request }).request;
        if (!computed && http && !result.errors?.length && !(UNSETTLED in result)) servedFromCache.set(http, version);
        return result;
      });
    },
  };

  const answer: ResponseCache["answer"] = async (request, run) => {
    if (request.method !== "GET" && request.method !== "POST") return run(request);
    const body = request.method === "POST" ? await request.text() : "";
    const key = createHash("sha256")
      .update(
        `${request.method}\0${request.headers.get("accept") ?? ""}\0${request.headers.get("content-type") ?? ""}\0`,
      )
      .update(request.method === "POST" ? body : new URL(request.url).search)
      .digest("base64url");
    const version = await indexedVersion();
    const hit = version ? answers.get(`${key}:${version}`) : undefined;
    if (hit) return new Response(hit.body, { status: hit.status, headers: [...hit.headers, ["x-cache", "HIT"]] });
    const forwarded =
      request.method === "POST"
        ? new Request(request.url, { method: "POST", headers: request.headers, body })
        : request;
    const res = await run(forwarded);
    const keptUnder = servedFromCache.get(forwarded);
    if (!keptUnder || keptUnder !== version || res.status !== 200) return res;
    const stored: Answer = { status: res.status, headers: [...res.headers], body: await res.text() };
    answers.set(`${key}:${version}`, stored);
    return new Response(stored.body, { status: stored.status, headers: stored.headers });
  };

  return {
    plugin,
    answer,
    sizes: () => [kept.sizeAs("graphql_results"), lruSize("graphql_answers", answers)],
  };
}

const DEFAULT_BYTES = 16 * 1024 * 1024;

/** A result's weight: the length of the JSON it is answered as (one that cannot be serialised is not kept). */
function jsonBytes(result: Result): number {
  return serialised(result)?.length ?? Number.MAX_SAFE_INTEGER;
}

function serialised(value: unknown): string | null {
  try {
    return JSON.stringify(value);
  } catch {
    return null;
  }
}

function operationOf(args: ExecutionArgs): OperationDefinitionNode | undefined {
  const operations = args.document.definitions.filter(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  return args.operationName ? operations.find((o) => o.name?.value === args.operationName) : operations[0];
}
