/**
 * graphql-yoga over the Pothos schema at /graphql: GraphiQL in a browser (local assets, the
 * README's examples as tabs), queries over POST or GET, subscriptions as server-sent events
 * (over WebSocket through this same instance: websocket.ts). Every request gets fresh
 * DataLoaders and a counted database handle (`extensions.sqlQueries`); internal errors are masked.
 */

import type { DocumentNode } from "graphql";
import { createGraphQLError, createYoga, maskError, type Plugin } from "graphql-yoga";
import { LRUCache } from "lru-cache";
import { type CacheLimits, DEFAULT_CACHE_LIMITS } from "../cache-limits.js";
import type { ReportContext } from "../context.js";
import { withBodyIfEmpty } from "../http/empty-body.js";
import { databaseUnavailable } from "../http/errors.js";
import { type CacheSizes, lruSize } from "../io/cache-sizes.js";
import { isDatabaseUnavailable } from "../io/database-errors.js";
import type { RegistryService } from "../registry/registry-service.js";
import type { StatementService } from "../statements/statement-service.js";
import type { GraphQLContext } from "./builder.js";
import { CACHEABLE_ROOT_FIELDS } from "./cacheable-fields.js";
import { EXAMPLE_QUERIES, exampleTab } from "./examples.js";
import { armor, nestingLimit, reportCost } from "./limits.js";
import { countingDb, createLoaders } from "./loaders.js";
import { responseCache } from "./response-cache.js";
import { schema } from "./schema.js";

/** Reports how many SQL statements the operation took. */
const sqlCountExtension: Plugin<GraphQLContext> = {
  onExecute: ({ args }) => ({
    onExecuteDone: ({ result, setResult }) => {
      if (Symbol.asyncIterator in result) return;
      setResult({
        ...result,
        extensions: { ...result.extensions, sqlQueries: (args.contextValue as GraphQLContext).sqlQueries() },
      });
    },
  }),
};

/**
 * yoga's server-sent events go out with `Content-Encoding: none`, which is not a content coding
 * (RFC 9110 registers none by that name): a strict client or proxy refuses the stream. Without the
 * header the stream is identity, and the app's compression leaves event streams alone.
 */
const noBogusContentCoding: Plugin<GraphQLContext> = {
  onResponse: ({ response }) => {
    if (response.headers.get("content-encoding") === "none") response.headers.delete("content-encoding");
  },
};

export function createGraphQL(
  reports: ReportContext,
  services: GraphQLContext["services"] = {},
  limits: Pick<CacheLimits, "graphqlBytes" | "graphqlDocuments"> = DEFAULT_CACHE_LIMITS,
) {
  const cache = responseCache(reports, {
    cacheable: CACHEABLE_ROOT_FIELDS,
    maxResultBytes: limits.graphqlBytes,
    maxAnswerBytes: limits.graphqlBytes,
  });
  // yoga's own parse cache, bounded by the configuration instead of its 1,024 documents of up to
  // 2,000 tokens (a few hundred KB each, parsed).
  const documents = new LRUCache<string, DocumentNode>({ max: limits.graphqlDocuments });
  const parseErrors = new LRUCache<string, Error>({ max: limits.graphqlDocuments });
  const yoga = createYoga<Record<string, unknown>, GraphQLContext>({
    schema,
    graphqlEndpoint: "/graphql",
    // CORS is the app's, once for every route (http/cors.ts): yoga's default answered
    // `Access-Control-Allow-Origin: *` with `Allow-Credentials: true`, a pair browsers refuse.
    cors: false,
    // Never development mode: a masked error carries no stack and no server path, whatever NODE_ENV says.
    // The database down is said (503, UNAVAILABLE, Retry-After) rather than masked as an internal error.
    maskedErrors: { isDev: false, maskError: maskUnlessDatabaseDown },
    // GraphiQL from the bundled assets of @graphql-yoga/render-graphiql (no CDN: it works
    // offline), with the README's example queries as tabs. Loaded by the first page asked for, not
    // by every start (the API is built before Ponder begins indexing).
    renderGraphiQL: async (options) => (await import("@graphql-yoga/render-graphiql")).renderGraphiQL(options),
    graphiql: {
      title: "kUSD transparency GraphQL",
      defaultTabs: EXAMPLE_QUERIES.map((e) => ({ query: exampleTab(e) })),
    },
    parserAndValidationCache: { documentCache: documents, errorCache: parseErrors },
    plugins: [armor(), nestingLimit(), reportCost(), cache.plugin, sqlCountExtension, noBogusContentCoding],
    context: ({ request }) => {
      const counted = countingDb(reports.db);
      return {
        reports: { ...reports, db: counted.db },
        loaders: createLoaders(counted.db),
        sqlQueries: counted.count,
        signal: request.signal,
        services,
      };
    },
  });
  /** An HTTP request to /graphql answered through the response cache's HTTP level (response-cache.ts). */
  const answer = (request: Request) => cache.answer(request, (r) => Promise.resolve(yoga.fetch(r)));
  const caches: CacheSizes = () => [
    ...cache.sizes(),
    lruSize("graphql_documents", documents),
    lruSize("graphql_parse_errors", parseErrors),
  ];
  return Object.assign(yoga, { answer, caches });
}

/** yoga's masking, except for the database being down: the client may retry that. Also masks WebSocket errors (websocket.ts). */
export function maskUnlessDatabaseDown(error: unknown, message: string, isDev?: boolean): Error {
  const cause = (error as { originalError?: unknown }).originalError ?? error;
  if (!isDatabaseUnavailable(cause)) return maskError(error, message, isDev);
  const e = databaseUnavailable();
  return createGraphQLError(e.message, {
    path: (error as { path?: readonly (string | number)[] }).path,
    extensions: {
      code: "UNAVAILABLE",
      reason: e.code,
      ...e.details,
      http: { status: 503, headers: { "Retry-After": String(e.details.retryAfterSeconds) } },
    },
  });
}

export type GraphQLServer = ReturnType<typeof createGraphQL>;

export type GraphQLServices = { statements?: StatementService; registry?: RegistryService };

/**
 * graphql-yoga answers a GET whose `variables` or `extensions` is not JSON with a 500 (its JSON.parse
 * throws): the caller's mistake is named here as a 400 in GraphQL's error shape before yoga runs.
 */
export function malformedGetParams(url: URL): string | null {
  for (const name of ["variables", "extensions"]) {
    const raw = url.searchParams.get(name);
    if (raw === null || raw === "") continue;
    try {
      JSON.parse(raw);
    } catch {
      return `the "${name}" parameter must be JSON (an object)`;
    }
  }
  return null;
}

/**
 * yoga answers some refusals with an empty body (415 for a POST that is not JSON): every refusal
 * says what was wrong, in GraphQL's error shape.
 */
export function withGraphQLErrorBody(res: Response): Promise<Response> {
  if (res.status < 400) return Promise.resolve(res);
  const message =
    res.status === 415
      ? "POST a JSON body with Content-Type: application/json (or use GET with ?query=)"
      : res.status === 406
        ? "not acceptable: a subscription is answered as server-sent events (send Accept: text/event-stream) or over WebSocket (graphql-ws, at this same URL); a query or mutation as application/graphql-response+json or application/json"
        : `request refused (${res.status})`;
  return withBodyIfEmpty(res, () => ({ errors: [{ message, extensions: { code: "BAD_REQUEST" } }] }));
}
