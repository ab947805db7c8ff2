/**
 * What the indexed tables' columns hold, written once: ponder.schema.ts points here, GraphQL's
 * field and filter descriptions are these strings, the exports' header rows carry the units, and
 * docs/api/schema.graphql carries them to readers. Amounts are raw integers; each says its
 * decimals, taken from units.ts (what the contracts' decimals() answer).
 */
import { ASSET_TEXT, KUSD, SHARE_DECIMALS_TEXT, TOKEN_UNITS, USDC, unitText } from "./units.js";

const TOKEN_DECIMALS_TEXT = Object.entries(TOKEN_UNITS)
  .map(([symbol, u]) => `${symbol} ${u.decimals}`)
  .join(", ");

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

/** Short unit labels: the exports' CSV header names a column `usdcAmount (USDC, 6 decimals raw)`. */
export const UNITS = {
  usdc: `${unitText(USDC)} raw`,
  kusd: `${unitText(KUSD)} raw`,
  fee: `raw fromToken units: USDC ${USDC.decimals} decimals (mint), kUSD ${KUSD.decimals} (redeem)`,
  bps: "basis points",
  tokenRaw: `raw units of tokenSymbol, decimals: ${TOKEN_DECIMALS_TEXT}`,
  assets: `raw asset units: ${ASSET_TEXT}`,
  shares: `raw share units, decimals: ${SHARE_DECIMALS_TEXT}`,
  kusdPerShare: `${unitText(KUSD)} raw, per whole share (1e24 share units)`,
  block: "block number",
  time: "ISO 8601, UTC",
} as const;

/** Columns most event tables share. */
export const EVENT_COLUMNS = {
  id: "The row's unique id; a log's row: its block and log index, zero-padded (0039123456:000007), in chain order as text",
  txHash: "The transaction's hash",
  blockNumber: "The block the event was emitted in",
  logIndex: "The log's index in its block",
  timestamp: "The block's time, ISO 8601 (filters take ISO 8601 or unix seconds)",
} as const;

export const PSM_RESERVE_MOVEMENT_COLUMNS = {
  id: "txHash:psm:in|out",
  psmKey: PSM_SWAP_COLUMNS.psmKey,
  psm: "The PSM's address",
  kind: "topUp | skim | flashLoan | unexplained",
  direction: "in (USDC entered the PSM) | out (USDC left it)",
  counterparty: "The other side of the USDC transfer",
  amount: unitText(USDC),
} as const;

export const VAULT_EVENT_COLUMNS = {
  vaultKey: "skUSD | skUSDDeprecated | vaultV1 | vaultV2",
  vault: "The vault's address",
  kind: "deposit | withdraw | transfer | yield | withdrawal_request | withdrawal_claim | sweep | l1_deposit",
  sender: "deposit / withdraw caller, yield strategist",
  from: "share transfer sender / withdraw owner",
  to: "share transfer receiver / deposit owner / withdraw receiver",
  assets: `In the vault's asset units: ${ASSET_TEXT}`,
  shares: `Share units, decimals: ${SHARE_DECIMALS_TEXT}`,
} as const;

export const SHARE_PRICE_COLUMNS = {
  id: "vault:block",
  vaultKey: "skUSD | skUSDDeprecated",
  vault: "The vault's address",
  assetsPerShare: `convertToAssets(1e24): ${unitText(KUSD)} per whole share (1e24 share units)`,
  totalAssets: unitText(KUSD),
  totalSupply: "Shares, 24 decimals (skUSD)",
} as const;

export const SHARE_BALANCE_COLUMNS = {
  id: "vault:account",
  vault: "The vault's address",
  vaultKey: "skUSD | skUSDDeprecated | vaultV1 | vaultV2",
  account: "The holder",
  shares: `Share units, decimals: ${SHARE_DECIMALS_TEXT}`,
} as const;

export const ROLE_EVENT_COLUMNS = {
  contractKey: "kUSD, psmMint, psmRetiredMint, psmRedeemReserve, skUSD, vaultV1, …",
  contract: "The contract the role is on",
  role: "The role's bytes32 id",
  roleName: "MINTER_ROLE, DEFAULT_ADMIN_ROLE, … when known",
  account: "The account granted or revoked",
  sender: "Who granted or revoked it",
  granted: "true for RoleGranted, false for RoleRevoked",
} as const;

export const ROLE_HOLDER_COLUMNS = {
  id: "contract:role:account",
  contractKey: ROLE_EVENT_COLUMNS.contractKey,
  contract: ROLE_EVENT_COLUMNS.contract,
  role: ROLE_EVENT_COLUMNS.role,
  roleName: ROLE_EVENT_COLUMNS.roleName,
  account: "The holder",
  active: "Holds the role now (false once revoked)",
  sinceBlock: "The block of the grant that made it a holder",
} as const;

export const REGISTRY_TRANSFER_COLUMNS = {
  token: "The token's address",
  tokenSymbol: "USDC | kUSD | WETH | skUSD | skUSD-v1",
  from: "Sender",
  to: "Receiver",
  amount: `Raw units of tokenSymbol, decimals: ${TOKEN_DECIMALS_TEXT}`,
  fromListed: "The sender is listed in the registry version in force at the block time",
  toListed: "The receiver is listed in the registry version in force at the block time",
  classification:
    "inbound | internal | burn | disclosed_venue_deposit | redemption_payout | mint_payout | vault_withdrawal | flash_loan | violation (spec 2.6 rule 2)",
  registryVersion: "The registry version in force at the block time (null before the first)",
} as const;

export const ACCOUNT_BALANCE_COLUMNS = {
  id: "token:account",
  token: "The token's address",
  tokenSymbol: REGISTRY_TRANSFER_COLUMNS.tokenSymbol,
  account: "The registry account",
  balance: REGISTRY_TRANSFER_COLUMNS.amount,
  updatedBlock: "The block of the last transfer that moved it",
} as const;

export const REGISTRY_VIOLATION_COLUMNS = {
  id: "txHash:token:from:to:amount",
  transferId: "The id of the registry transfer",
  token: "The token's address",
  tokenSymbol: REGISTRY_TRANSFER_COLUMNS.tokenSymbol,
  from: "The listed account the token left",
  to: "Receiver",
  amount: REGISTRY_TRANSFER_COLUMNS.amount,
  registryVersion: "The registry version in force at the block time",
} as const;
