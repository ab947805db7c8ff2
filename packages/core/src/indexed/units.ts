/**
 * The one place the API's descriptions and decimal columns take units from: each token's and
 * vault share's decimals as the deployed contracts' `decimals()` answer (test/e2e/units.test.ts
 * reads them). skUSD is ERC-4626 with a decimals offset of 6 (24); the deposit vaults v1/v2 use
 * an offset of 3 over WETH (21).
 */

export type Unit = { symbol: string; decimals: number };

export const USDC: Unit = { symbol: "USDC", decimals: 6 };
export const KUSD: Unit = { symbol: "kUSD", decimals: 18 };
export const WETH: Unit = { symbol: "WETH", decimals: 18 };

/** Each vault's share unit and the asset it holds, by vault key. */
export const VAULT_UNITS = {
  skUSD: { shares: { symbol: "skUSD shares", decimals: 24 }, asset: KUSD },
  skUSDDeprecated: { shares: { symbol: "skUSD v1 shares", decimals: 24 }, asset: KUSD },
  vaultV1: { shares: { symbol: "vault v1 shares", decimals: 21 }, asset: WETH },
  vaultV2: { shares: { symbol: "vault v2 shares", decimals: 21 }, asset: WETH },
} as const satisfies Record<string, { shares: Unit; asset: Unit }>;

export type VaultKey = keyof typeof VAULT_UNITS;

/** Tokens by the symbol the indexer stores on registry transfers and balances. */
export const TOKEN_UNITS: Record<string, Unit> = {
  USDC,
  kUSD: KUSD,
  WETH,
  skUSD: VAULT_UNITS.skUSD.shares,
  "skUSD-v1": VAULT_UNITS.skUSDDeprecated.shares,
};

/** Decimals of a stored token symbol; null for a symbol we do not know (never guessed). */
export const decimalsOf = (symbol: string): number | null => TOKEN_UNITS[symbol]?.decimals ?? null;

/** "USDC, 6 decimals": how a description names an amount's unit. */
export const unitText = (u: Unit) => `${u.symbol}, ${u.decimals} decimals`;

/** The share decimals of every vault, for a field that spans vaults. */
export const SHARE_DECIMALS_TEXT = Object.entries(VAULT_UNITS)
  .map(([key, u]) => `${key} ${u.shares.decimals}`)
  .join(", ");

/** The asset of every vault, for a field that spans vaults. */
export const ASSET_TEXT = Object.entries(VAULT_UNITS)
  .map(([key, u]) => `${key} ${unitText(u.asset)}`)
  .join("; ");
