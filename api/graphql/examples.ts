/**
 * The README's example queries, preloaded as GraphiQL tabs at /graphql. A test keeps them equal
 * to the README's text and valid against the schema.
 */
export const EXAMPLE_QUERIES: ReadonlyArray<{ title: string; query: string }> = [
  {
    title: "Every redemption of one redeemer, newest first, with what the registry says of it",
    query: `{ psmSwaps(first: 100, orderDirection: desc, where: { user: "0x9b84C51c8B75F770351DfF85d7F9F4a2AD3bEb0B", direction: redeem }) {
    nodes { txHash timestamp kusdAmount usdcAmount feeBps psm { key label } user { registryListing { role label } } }
    pageInfo { hasNextPage endCursor } } }`,
  },
  {
    title: "Monthly mint and redemption volume per PSM since the mint PSM redeploy",
    query: `{ swapAggregates(interval: MONTH, groupBy: [PSM, DIRECTION], range: { from: "2026-07-10T00:00:00Z" }) { periodStart psm direction count usdc { sum { formatted unit } } kusd { sum { formatted unit } } } }`,
  },
  {
    title: "Solvency at a past block, and what left the registry accounts around it",
    query: `{ reserves(block: "500") { timestamp solvency { status psmSolvencyRatio aggregateCollateralRatio } minterRoleHeld }
  registryTransfers(first: 50, where: { blockNumber_gte: "450", blockNumber_lte: "500" }) { nodes { tokenSymbol from to amount classification } } }`,
  },
  {
    title: "Weekly backing ratio, outstanding kUSD, PSM USDC and redemptions, each at its block",
    query: `{ history(interval: WEEK) { points { periodStart blockNumber kusdOutstanding psmUsdc backingRatio skusdSharePrice redemptions } } }`,
  },
];

/** A tab's text: the title as a comment line, then the query. */
export const exampleTab = (e: { title: string; query: string }) => `# ${e.title}\n${e.query}`;
