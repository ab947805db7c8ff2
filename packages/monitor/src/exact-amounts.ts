/**
 * Amounts in alert bodies as exact decimal strings in units (`"0.000000000000001"`), made from
 * the raw integer the feed carries beside them: the feeds' unit figures are JSON numbers, which a
 * small transfer turns into `1e-15` and an 18-decimal amount rounds. The raw integers stay as
 * they are, so a receiver has both.
 */
import { formatUnits } from "viem";

type Item = { [k: string]: unknown };

/** Each amount field in units, the raw field it is made from, and its decimals (a number, or the field holding it). */
const AMOUNTS: readonly { field: string; raw: string; decimals: number | string }[] = [
  // A registry violation (any listed token): decimals in the item.
  { field: "amount", raw: "amountRaw", decimals: "decimals" },
  // A redemption.
  { field: "kusdRedeemed", raw: "kusdRedeemedRaw", decimals: 18 },
  { field: "usdcPaidOut", raw: "usdcPaidOutRaw", decimals: 6 },
];

/** `item` with each amount it carries a raw integer for written as an exact decimal string. */
export function withExactAmounts<T extends Item>(item: T): T {
  const out: Item = { ...item };
  for (const a of AMOUNTS) {
    const raw = item[a.raw];
    const decimals = typeof a.decimals === "number" ? a.decimals : item[a.decimals];
    if (a.field in item && typeof raw === "string" && /^\d+$/.test(raw) && typeof decimals === "number")
      out[a.field] = formatUnits(BigInt(raw), decimals);
  }
  return out as T;
}
