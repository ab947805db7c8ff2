/**
 * The one-liners every section shares. A failed read is null and stays null through every
 * conversion and every sum: an unknown figure is published as unknown, never as a guess.
 */
import type { Address } from "viem";
import { orNull, toUnits } from "../units.js";
import type { Read, StakingVaultSnapshot } from "./snapshot.js";

export const v = <T>(r: Read<T>): T | null => (r ? r.value : null);
export const cmds = (...c: (string | null | undefined)[]) => c.filter((x): x is string => typeof x === "string");
export const cmd = <T>(r: Read<T>, field: string) => (r ? r.command(field) : null);
export const eth = (r: Read<bigint>) => orNull(v(r), (x) => toUnits(x, 18));
export const usdc = (r: Read<bigint>) => orNull(v(r), (x) => toUnits(x, 6));
/** A share amount in whole shares at the decimals the vault itself reports (null when unread). */
export const inShares = (raw: bigint | null, decimals: Read<number>) =>
  raw === null || !decimals ? null : toUnits(raw, Number(decimals.value));
export const mul = (a: number | null, b: number | null) => (a === null || b === null ? null : a * b);
export const add = (...xs: (number | null)[]) =>
  xs.some((x) => x === null) ? null : xs.reduce<number>((s, x) => s + x!, 0);

/** Raw shares the picked registry accounts hold in a vault; null as soon as one balance is unread. */
export function sharesOf(vault: StakingVaultSnapshot, pick: (a: Address) => boolean): bigint | null {
  let total = 0n;
  for (const x of vault.listedShares) {
    if (!pick(x.account)) continue;
    if (!x.shares) return null;
    total += x.shares.value;
  }
  return total;
}
