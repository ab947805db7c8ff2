/**
 * The AccessControl roles of the deployed contracts, each defined once: its hash is the keccak256
 * of its name (OpenZeppelin), the admin role is zero. The indexer names role events with ROLE_NAMES;
 * reports, risk triggers and the devnet use the constants.
 */
import { type Hex, keccak256, stringToHex } from "viem";

export const DEFAULT_ADMIN_ROLE: Hex = `0x${"00".repeat(32)}`;
export const MINTER_ROLE = keccak256(stringToHex("MINTER_ROLE"));
export const MANAGER_ROLE = keccak256(stringToHex("MANAGER_ROLE"));
export const STRATEGIST_ROLE = keccak256(stringToHex("STRATEGIST_ROLE"));
export const ARBITRAGEUR_ROLE = keccak256(stringToHex("ARBITRAGEUR_ROLE"));
export const PAUSER_ROLE = keccak256(stringToHex("PAUSER_ROLE"));

/** Role hash → name, for the roles the deployed contracts define. */
export const ROLE_NAMES: ReadonlyMap<Hex, string> = new Map([
  [DEFAULT_ADMIN_ROLE, "DEFAULT_ADMIN_ROLE"],
  [MINTER_ROLE, "MINTER_ROLE"],
  [MANAGER_ROLE, "MANAGER_ROLE"],
  [ARBITRAGEUR_ROLE, "ARBITRAGEUR_ROLE"],
  [STRATEGIST_ROLE, "STRATEGIST_ROLE"],
  [PAUSER_ROLE, "PAUSER_ROLE"],
]);
