/**
 * Production limits on every operation: depth, cost, aliases, tokens (GraphQL Armor), plus the
 * page-size limit each connection enforces (inputs.ts, MAX_PAGE). An abusive query gets a
 * GraphQL error before anything runs.
 */
import { EnvelopArmorPlugin } from "@escape.tech/graphql-armor";

export const LIMITS = { maxDepth: 10, maxCost: 20_000, maxAliases: 15, maxTokens: 2_000, maxDirectives: 20 } as const;

export const armor = () =>
  EnvelopArmorPlugin({
    maxDepth: { n: LIMITS.maxDepth, exposeLimits: true },
    costLimit: { maxCost: LIMITS.maxCost, exposeLimits: true },
    maxAliases: { n: LIMITS.maxAliases, exposeLimits: true },
    maxTokens: { n: LIMITS.maxTokens, exposeLimits: true },
    maxDirectives: { n: LIMITS.maxDirectives, exposeLimits: true },
    blockFieldSuggestion: { enabled: true },
  });
