/**
 * A GraphQL request's points, from its document before it runs: GraphQL Armor's complexity of the
 * operation (the very rule and options api/graphql/limits.ts applies, so the figure is the one
 * Armor's 20,000 limit is checked against), each `reserves` or `stats` field as the REST report it
 * builds, and a subscription as opening a stream. The document is read as yoga reads it: the
 * bracket nesting scan first (a deeper one would overflow the parser's stack) and the token
 * limit while parsing; a document yoga refuses before running costs one point.
 */
import { costLimitRule } from "@escape.tech/graphql-armor-cost-limit";
import {
  type DocumentNode,
  type FragmentDefinitionNode,
  Kind,
  type OperationDefinitionNode,
  parse,
  type ValidationContext,
  type ValueNode,
} from "graphql";
import { CHAIN_REPORT_FIELDS, LIMITS, nestingError } from "../../graphql/limits.js";
import { type Charge, COMPLEXITY_PER_POINT, COSTS } from "./cost-table.js";

/** A document over Armor's limit is refused before it runs: it is charged as one at the limit. */
const MAX_COMPLEXITY_POINTS = Math.ceil(LIMITS.maxCost / COMPLEXITY_PER_POINT);

/** The most a query can cost: the complexity limit and the chain reports an operation may ask for, each at a past block. */
export const GRAPHQL_MAX_POINTS =
  COSTS.graphql.points + MAX_COMPLEXITY_POINTS + LIMITS.maxChainReports * COSTS.past_block.points;

/** A body that was not read (no declared length) is charged as the most a query can cost. */
export const GRAPHQL_UNREAD_POINTS = GRAPHQL_MAX_POINTS;

const refusedByYoga: Charge = { route: "graphql", points: COSTS.graphql.points };

/** `params`: the request's { query, operationName, variables }; `atBlock`: a report's points at a block. */
export async function graphqlCost(params: unknown, atBlock: (block: string) => Promise<number>): Promise<Charge> {
  if (!params || typeof params !== "object" || Array.isArray(params)) return refusedByYoga;
  const { query, operationName, variables } = params as Record<string, unknown>;
  if (typeof query !== "string" || nestingError(query)) return refusedByYoga;
  let document: DocumentNode;
  try {
    document = parse(query, { maxTokens: LIMITS.maxTokens });
  } catch {
    return refusedByYoga;
  }
  const operation = selectedOperation(document, typeof operationName === "string" ? operationName : null);
  if (!operation) return refusedByYoga;
  if (operation.operation === "subscription") return { route: "subscription", points: COSTS.subscription.points };
  const complexityPoints = Math.min(
    MAX_COMPLEXITY_POINTS,
    Math.ceil(armorComplexity(document, operation) / COMPLEXITY_PER_POINT),
  );
  const vars = variables && typeof variables === "object" ? (variables as Record<string, unknown>) : {};
  const reports = chainReportBlocks(operation, vars).slice(0, LIMITS.maxChainReports);
  const reportPoints = (await Promise.all(reports.map(atBlock))).reduce((a, b) => a + b, 0);
  return { route: "graphql", points: COSTS.graphql.points + complexityPoints + reportPoints };
}

/** The operation yoga runs: the one named, or the document's only one. */
function selectedOperation(document: DocumentNode, name: string | null): OperationDefinitionNode | null {
  const operations = document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
  if (name !== null) return operations.find((o) => o.name?.value === name) ?? null;
  return operations.length === 1 ? operations[0]! : null;
}

/**
 * Armor's cost rule run on one operation. The rule asks its context for fragments only, so the
 * document's own stand in for a validation context: no schema is needed, and none of another
 * copy of graphql-js is touched (see limits.ts on the two builds under vitest).
 */
export function armorComplexity(document: DocumentNode, operation: OperationDefinitionNode): number {
  const fragments = new Map(
    document.definitions
      .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
      .map((f) => [f.name.value, f]),
  );
  let complexity = 0;
  const context = { getFragment: (name: string) => fragments.get(name) } as unknown as ValidationContext;
  const rule = costLimitRule({
    maxCost: Number.POSITIVE_INFINITY,
    propagateOnRejection: false,
    onAccept: [
      (_context, details: { n: number }) => {
        complexity = details.n;
      },
    ],
  })(context);
  rule.OperationDefinition.enter(operation);
  return complexity;
}

/** The `block` argument of each top-level chain-report field ("" at the head). */
function chainReportBlocks(operation: OperationDefinitionNode, variables: Record<string, unknown>): string[] {
  const blocks: string[] = [];
  for (const selection of operation.selectionSet.selections) {
    if (selection.kind !== Kind.FIELD || !CHAIN_REPORT_FIELDS.has(selection.name.value)) continue;
    const arg = selection.arguments?.find((a) => a.name.value === "block");
    blocks.push(arg ? valueText(arg.value, variables) : "");
  }
  return blocks;
}

function valueText(value: ValueNode, variables: Record<string, unknown>): string {
  if (value.kind === Kind.INT || value.kind === Kind.STRING) return value.value;
  if (value.kind === Kind.VARIABLE) {
    const v = variables[value.name.value];
    return typeof v === "string" || typeof v === "number" || typeof v === "bigint" ? String(v) : "";
  }
  return "";
}
