/**
 * What the indexed tables' columns hold, written once: ponder.schema.ts points here, GraphQL's
 * field descriptions are these strings, and docs/api/schema.graphql carries them to readers.
 * Amounts are raw integers; each says its decimals.
 */
export const PSM_SWAP_COLUMNS = {
  psmKey: "Which PSM: psmMint, psmRetiredMint or psmRedeemReserve",
  direction: "mint (USDC → kUSD) or redeem (kUSD → USDC)",
  user: "The swapper (for a redemption, the redeemer)",
  usdcAmount: "USDC in (mint) or paid out (redeem), 6 decimals",
  kusdAmount: "kUSD minted (mint) or taken in (redeem), 18 decimals",
  fee: "As the PSM emitted it, in fromToken units: USDC (6 decimals) for a mint, kUSD (18 decimals) for a redemption",
  feeBps: "fee / amount in basis points (the tier the PSM applied)",
  kusdBurned:
    "kUSD the PSM burned in this redemption, 18 decimals: the live PSM burns while minting is enabled; PSM v1 and v3 keep redeemed kUSD as inventory (0)",
} as const;
