/**
 * The groups of /api/openapi.json's operations, each declared with what it holds: a route
 * contract names its group from here, and the document declares the groups its operations use.
 */
export const API_TAGS = {
  Reserves: "Reserves, liabilities and solvency of kUSD at a block, its history, and how a redemption would be paid",
  "Signed statements":
    "The hourly reserves statements, EIP-191 signed, and the signer binding that says which key signs them",
  "Account registry": "The operator's listed accounts, their published versions, and transfers the registry flags",
  Monitoring: "Health, risk triggers and event feeds (redemptions, MINTER_ROLE changes, PSM pauses, backing ratio)",
  Yield: "The staking vault's APY, the hedge account's realized ledger, and realized against advertised vault yield",
  Lending: "The operator's isolated lending market: supply, borrows and who borrows",
  Exports: "Every row of an indexed entity as CSV or NDJSON, with GraphQL's filters, order and block",
  Discovery: "Descriptions of this API for agents: llms.txt and the x402 discovery document",
} as const;

export type ApiTag = keyof typeof API_TAGS;

/** The tags the operations of a document use, declared in order of first use, each with its description. */
export function declaredTags(paths: Record<string, Record<string, { tags?: string[] }>>) {
  const used = new Set(Object.values(paths).flatMap((ops) => Object.values(ops).flatMap((op) => op.tags ?? [])));
  return [...used].map((name) => ({
    name,
    ...(name in API_TAGS && { description: API_TAGS[name as ApiTag] }),
  }));
}
