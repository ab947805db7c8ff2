/**
 * Production limits on every operation: depth, cost, aliases, tokens (GraphQL Armor), plus the
 * page-size limit each connection enforces (inputs.ts, MAX_PAGE). An abusive query gets a
 * GraphQL error before anything runs.
 */
import { EnvelopArmorPlugin } from "@escape.tech/graphql-armor";
import type { GraphQLArmorRejectCallback } from "@escape.tech/graphql-armor-types";
import { GraphQLError, type ValidationRule } from "graphql";
import type { Plugin } from "graphql-yoga";

export const LIMITS = { maxDepth: 10, maxCost: 20_000, maxAliases: 15, maxTokens: 2_000, maxDirectives: 20, maxChainReports: 2 } as const;

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
        for (const sel of op.selectionSet.selections) if (sel.kind === "Field" && CHAIN_REPORT_FIELDS.has(sel.name.value)) count++;
        if (count > LIMITS.maxChainReports) {
          context.reportError(new GraphQLError(`this operation asks for ${count} chain-read reports (${[...CHAIN_REPORT_FIELDS].join(", ")}); at most ${LIMITS.maxChainReports} per operation`, { extensions: { code: "COST_LIMIT" } }));
        }
      },
    },
  };
};

export const reportCost = (): Plugin => ({ onValidate: ({ addValidationRule }) => addValidationRule(chainReportLimit) });

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
