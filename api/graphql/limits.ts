/**
 * Production limits on every operation: depth, cost, aliases, tokens (GraphQL Armor), the nesting
 * of brackets in the document, plus the page-size limit each connection enforces (inputs.ts,
 * MAX_PAGE). An abusive query gets a GraphQL error before anything runs.
 */
import { EnvelopArmorPlugin } from "@escape.tech/graphql-armor";
import type { GraphQLArmorRejectCallback } from "@escape.tech/graphql-armor-types";
import {
  type DocumentNode,
  GraphQLError,
  type GraphQLInputObjectType,
  type GraphQLInputType,
  type GraphQLSchema,
  Kind,
  Lexer,
  Source,
  TokenKind,
  type TypeNode,
  type ValidationRule,
} from "graphql";
import { createGraphQLError, type Plugin } from "graphql-yoga";

export const LIMITS = {
  maxDepth: 10,
  maxCost: 20_000,
  maxAliases: 15,
  maxTokens: 2_000,
  maxDirectives: 20,
  maxChainReports: 2,
  maxNesting: 64,
} as const;

/**
 * Root fields that build a report from pinned chain reads (about 80 for `reserves`): Armor's cost
 * counts them as one field each, so 15 aliased `reserves` cost 15 full reports. They are counted
 * here instead, aliases included, and an operation may ask for at most `maxChainReports`.
 */
export const CHAIN_REPORT_FIELDS = new Set(["reserves", "stats"]);

export const chainReportLimit: ValidationRule = (context) => {
  let count = 0;
  return {
    OperationDefinition: {
      enter: (op) => {
        count = 0;
        for (const sel of op.selectionSet.selections)
          if (sel.kind === "Field" && CHAIN_REPORT_FIELDS.has(sel.name.value)) count++;
        if (count > LIMITS.maxChainReports) {
          context.reportError(
            new GraphQLError(
              `this operation asks for ${count} chain-read reports (${[...CHAIN_REPORT_FIELDS].join(", ")}); at most ${LIMITS.maxChainReports} per operation`,
              { extensions: { code: "COST_LIMIT" } },
            ),
          );
        }
      },
    },
  };
};

export const reportCost = (): Plugin => ({
  onValidate: ({ addValidationRule }) => addValidationRule(chainReportLimit),
});

/**
 * Armor's errors carry no code of their own; each limit gets a stable one (the chain-report
 * limit above is COST_LIMIT too), so a client can tell "ask for less" from a bad query.
 */
const tagged = (code: string): { onReject: GraphQLArmorRejectCallback[] } => ({
  onReject: [
    (_context, error) => {
      (error.extensions as Record<string, unknown>).code ??= code;
    },
  ],
});

export const armor = () =>
  EnvelopArmorPlugin({
    maxDepth: { n: LIMITS.maxDepth, exposeLimits: true, ...tagged("DEPTH_LIMIT") },
    costLimit: { maxCost: LIMITS.maxCost, exposeLimits: true, ...tagged("COST_LIMIT") },
    maxAliases: { n: LIMITS.maxAliases, exposeLimits: true, ...tagged("ALIAS_LIMIT") },
    maxTokens: { n: LIMITS.maxTokens, exposeLimits: true, ...tagged("TOKEN_LIMIT") },
    maxDirectives: { n: LIMITS.maxDirectives, exposeLimits: true, ...tagged("DIRECTIVE_LIMIT") },
    blockFieldSuggestion: { enabled: true },
  });

const OPENERS = new Set<TokenKind>([TokenKind.BRACKET_L, TokenKind.BRACE_L, TokenKind.PAREN_L]);
const CLOSERS = new Set<TokenKind>([TokenKind.BRACKET_R, TokenKind.BRACE_R, TokenKind.PAREN_R]);

/**
 * graphql-js parses recursively, one call chain per `[`, `{` or `(`: a list literal about 2,000
 * deep overflows the stack (a 500) before Armor's token limit (which counts inside that parser)
 * stops it. This scan walks the tokens in a loop and refuses a document whose brackets open
 * deeper than `limit`, before the parser sees it. A document the lexer cannot read is left to the
 * parser, so it gets the parser's own syntax error: the parser reaches that token only through
 * the nesting scanned before it. The error is made by yoga's `createGraphQLError`: yoga masks a
 * thrown error that is not an instance of its own GraphQLError class as a 500, and under vitest
 * this file's `graphql` resolves to the ESM build while yoga's is the CommonJS one.
 */
export function nestingError(source: string | Source, limit: number = LIMITS.maxNesting): GraphQLError | null {
  const src = typeof source === "string" ? new Source(source) : source;
  const lexer = new Lexer(src);
  let depth = 0;
  try {
    for (let token = lexer.advance(); token.kind !== TokenKind.EOF; token = lexer.advance()) {
      if (CLOSERS.has(token.kind)) depth = Math.max(0, depth - 1);
      else if (OPENERS.has(token.kind) && ++depth > limit) {
        return createGraphQLError(
          `Syntax Error: Nesting limit of ${limit} exceeded ([, { and ( may open at most ${limit} deep).`,
          { source: src, positions: [token.start], extensions: { code: "NESTING_LIMIT" } },
        );
      }
    }
  } catch {
    return null;
  }
  return null;
}

/**
 * The nesting scan as a step of parsing, so its refusal is answered like any syntax error (200
 * with `application/json`, 400 with `application/graphql-response+json`). It must come after
 * `armor()` in the plugin list: Armor's token limit replaces the parse function instead of
 * wrapping it, and this wraps whichever is current.
 */
export const nestingLimit = (): Plugin => ({
  onParse: ({ parseFn, setParseFn }) => {
    setParseFn((source, options) => {
      const refused = nestingError(source);
      if (refused) throw refused;
      return parseFn(source, options);
    });
  },
  onExecute: ({ args, setResultAndStopExecution }) => {
    const refused = variablesNestingError(args);
    if (refused) setResultAndStopExecution({ errors: [refused] });
  },
  onSubscribe: ({ args, setResultAndStopExecution }) => {
    const refused = variablesNestingError(args);
    if (refused) setResultAndStopExecution({ errors: [refused] });
  },
});

/**
 * graphql-js coerces variables recursively too. A value of a non-recursive type fails at the
 * first level it does not fit, but a recursive input type (a filter's `OR: [<same type>]`) follows
 * a value thousands of levels deep and overflows the stack (a 500). A variable of such a type may
 * nest as deep as a document's brackets (`limit`), counted in a loop before execution.
 */
export function variablesNestingError(
  args: { schema: GraphQLSchema; document: DocumentNode; operationName?: string | null; variableValues?: unknown },
  limit: number = LIMITS.maxNesting,
): GraphQLError | null {
  const values = (args.variableValues ?? {}) as Record<string, unknown>;
  for (const def of args.document.definitions) {
    if (def.kind !== Kind.OPERATION_DEFINITION) continue;
    for (const v of def.variableDefinitions ?? []) {
      const type = args.schema.getType(namedTypeOf(v.type));
      if (!isInputObject(type) || !recursive(type)) continue;
      if (nestedDeeper(values[v.variable.name.value], limit))
        return createGraphQLError(
          `Variable "$${v.variable.name.value}" got invalid value: it nests deeper than ${limit} levels of lists and objects`,
          { extensions: { code: "BAD_USER_INPUT", reason: "limit_exceeded", argument: v.variable.name.value, limit } },
        );
    }
  }
  return null;
}

/**
 * By tag, not instanceof: under vitest the schema's types come from graphql's CommonJS build and
 * this file's helpers from its ES build (see nestingError).
 */
const isInputObject = (t: unknown): t is GraphQLInputObjectType =>
  Object.prototype.toString.call(t) === "[object GraphQLInputObjectType]";

function unwrapped(type: GraphQLInputType): unknown {
  let t: unknown = type;
  while (t && typeof t === "object" && "ofType" in t) t = (t as { ofType: unknown }).ofType;
  return t;
}

function namedTypeOf(type: TypeNode): string {
  return type.kind === Kind.NAMED_TYPE ? type.name.value : namedTypeOf(type.type);
}

/** Whether an input type's fields lead back to a type already on the path (OR: [Self]). */
function recursive(type: GraphQLInputObjectType, path: Set<string> = new Set()): boolean {
  if (path.has(type.name)) return true;
  path.add(type.name);
  for (const field of Object.values(type.getFields())) {
    const inner = unwrapped(field.type);
    if (isInputObject(inner) && recursive(inner, path)) return true;
  }
  path.delete(type.name);
  return false;
}

function nestedDeeper(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== "object") continue;
    if (depth >= limit) return true;
    for (const inner of Object.values(v)) stack.push([inner, depth + 1]);
  }
  return false;
}
