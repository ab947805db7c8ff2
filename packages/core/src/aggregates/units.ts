/**
 * The unit and decimals of every amount the aggregates sum: PSM swap columns, registry
 * transfers by token symbol, vault assets and shares by vault. Taken from packages/core/src/indexed/units
 * (the one table of decimals, checked against the contracts' decimals()), never restated here.
 */
import {
  type Unit as IndexedUnit,
  KUSD as KUSD_UNIT,
  TOKEN_UNITS,
  USDC as USDC_UNIT,
  VAULT_UNITS,
} from "../indexed/units.js";
import type { AmountUnit } from "./amount.js";

const labelled = (u: IndexedUnit): AmountUnit => ({ unit: u.symbol, decimals: u.decimals });

export const USDC_AMOUNT_UNIT = labelled(USDC_UNIT);
export const KUSD_AMOUNT_UNIT = labelled(KUSD_UNIT);

/**
 * A PSM emits its fee in the token it takes in: USDC for a mint, kUSD for a redemption. So fees
 * are summed per direction and never across them.
 */
export const SWAP_FEE_UNIT = { mint: USDC_AMOUNT_UNIT, redeem: KUSD_AMOUNT_UNIT } as const;

/** The symbols the indexer stores on registry transfers. */
export const TRANSFER_TOKENS = Object.keys(TOKEN_UNITS);

/** A symbol or vault the tables do not name is labelled as raw units, never guessed. */
const UNKNOWN: AmountUnit = { unit: "unknown (raw units)", decimals: 0 };

export const transferUnit = (symbol: string): AmountUnit => {
  const u = TOKEN_UNITS[symbol];
  return u ? labelled(u) : UNKNOWN;
};

export function vaultUnits(vaultKey: string): { assets: AmountUnit; shares: AmountUnit } {
  const u = VAULT_UNITS[vaultKey as keyof typeof VAULT_UNITS];
  return u ? { assets: labelled(u.asset), shares: labelled(u.shares) } : { assets: UNKNOWN, shares: UNKNOWN };
}
