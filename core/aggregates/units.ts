/**
 * The unit and decimals of every amount the aggregates sum: PSM swap columns, registry
 * transfers by token symbol, vault assets and shares by vault. Taken from core/indexed/units
 * (the one table of decimals, checked against the contracts' decimals()), never restated here.
 */
import {
  type Unit as IndexedUnit,
  KUSD as KUSD_UNIT,
  TOKEN_UNITS,
  USDC as USDC_UNIT,
  VAULT_UNITS,
} from "../indexed/units.js";
import type { Unit } from "./amount.js";

const labelled = (u: IndexedUnit): Unit => ({ unit: u.symbol, decimals: u.decimals });

export const USDC = labelled(USDC_UNIT);
export const KUSD = labelled(KUSD_UNIT);

/**
 * A PSM emits its fee in the token it takes in: USDC for a mint, kUSD for a redemption. So fees
 * are summed per direction and never across them.
 */
export const SWAP_FEE_UNIT = { mint: USDC, redeem: KUSD } as const;

/** The symbols the indexer stores on registry transfers. */
export const TRANSFER_TOKENS = Object.keys(TOKEN_UNITS);

/** A symbol or vault the tables do not name is labelled as raw units, never guessed. */
const UNKNOWN: Unit = { unit: "unknown (raw units)", decimals: 0 };

export const transferUnit = (symbol: string): Unit => {
  const u = TOKEN_UNITS[symbol];
  return u ? labelled(u) : UNKNOWN;
};

export function vaultUnits(vaultKey: string): { assets: Unit; shares: Unit } {
  const u = VAULT_UNITS[vaultKey as keyof typeof VAULT_UNITS];
  return u ? { assets: labelled(u.asset), shares: labelled(u.shares) } : { assets: UNKNOWN, shares: UNKNOWN };
}
