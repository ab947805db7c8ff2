/**
 * Answers to the same query over the same indexed state are computed once. An operation whose
 * root fields read only indexed tables is a function of the indexed state, so its result is kept
 * under (document, operation name, variables, the indexed state's fingerprint: io/indexed-version):
 * a new block, a reorg or a rollback is a new key, and nothing needs invalidating. Root fields
 * that read something else (the venue, the chain's head, the statement store) are only shared
 * between identical requests in flight. A result with errors is never kept, nor one whose state
 * changed while it was computed.
 */
import { createHash } from "node:crypto";
import { type DocumentNode, type ExecutionArgs, Kind, type OperationDefinitionNode, print } from "graphql";
import type { Plugin } from "graphql-yoga";
import type { ReportContext } from "../context.js";
import { readIndexedVersion } from "../io/indexed-version.js";
import { coalesce, memo } from "../io/memo.js";
import type { GraphQLContext } from "./builder.js";

export type ResponseCacheOptions = {
  /** Root fields whose answer is a function of the indexed state alone. */
  cacheable: ReadonlySet<string>;
  /** Results kept (an LRU). */
  max?: number;
};

type Result = { errors?: readonly unknown[] } & Record<string | symbol, unknown>;

/** Marks a result whose indexed state moved while it ran (not kept). */
const UNSETTLED = Symbol("unsettled");

export function responseCache(reports: ReportContext, options: ResponseCacheOptions): Plugin<GraphQLContext> {
  const kept = memo<Result>({ max: options.max ?? 1_000, keep: (r) => !r.errors?.length && !(UNSETTLED in r) });
  const inFlight = coalesce<Result>();
  // The fingerprint is read at most every headFreshMs, as reports read the head (0: shared only
  // between requests in flight): under load the per-request read was the cost on PGlite.
  const readVersion =
    reports.headFreshMs > 0
      ? memo<string | null>({ max: 1, ttlMs: reports.headFreshMs, keep: (v) => v !== null })
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

  return {
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
        return kept(`${request}:${version}`, async () => {
          const result = await run();
          // Computed across a change: right for the request, not for the key it started under.
          if ((await indexedVersion()) !== version) return { ...result, [UNSETTLED]: true };
          return result;
        });
      });
    },
  };
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
