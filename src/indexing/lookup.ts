/**
 * Address → name lookups for the handlers, built once from the selected network. Addresses are
 * compared lower-case everywhere.
 */

import { indexRegistry } from "@kusd/core";
import type { Address } from "viem";
import { network } from "../config.js";

export { network };

const invert = (record: Record<string, { address: Address }>) =>
  new Map(Object.entries(record).map(([key, d]) => [d.address.toLowerCase(), key]));

const psmKeys = invert(network.psms);
const vaultKeys = invert({ ...network.stakingVaults, ...network.depositVaults });
const lstSymbols = invert(network.lsts);
const lendingKeys = invert(network.lending);
const listed = new Set(network.registryAccounts.map((a) => a.toLowerCase()));

/** The account registry over time: which accounts are listed, and which venues disclosed, when. */
export const registryIndex = indexRegistry(network.registry.versions);

export const lower = (a: string) => a.toLowerCase() as Address;
export const isListed = (a: string) => listed.has(a.toLowerCase());
export const psmKeyOf = (a: string) => psmKeys.get(a.toLowerCase());
export const vaultKeyOf = (a: string) => vaultKeys.get(a.toLowerCase()) ?? "unknown";
export const lstSymbolOf = (a: string) => lstSymbols.get(a.toLowerCase()) ?? "unknown";
export const lendingKeyOf = (a: string) => lendingKeys.get(a.toLowerCase()) ?? "unknown";

const contractKeys = new Map<string, string>([[network.kUSD.address.toLowerCase(), "kUSD"], ...psmKeys, ...vaultKeys]);
export const contractKeyOf = (a: string) => contractKeys.get(a.toLowerCase()) ?? "unknown";

export const TOKEN_SYMBOLS = new Map<string, string>([
  [network.usdc.address.toLowerCase(), "USDC"],
  [network.kUSD.address.toLowerCase(), "kUSD"],
  [network.weth.address.toLowerCase(), "WETH"],
  [network.stakingVaults.skUSD.address.toLowerCase(), "skUSD"],
  [network.stakingVaults.skUSDDeprecated.address.toLowerCase(), "skUSD-v1"],
]);
