/**
 * Turns call results, logs and revert data into strings that can be compared across the two
 * sides: addresses become the names of their roles on that side (side A's kUSD and side B's
 * kUSD both read "kusd"), role hashes become role names, numbers are exact decimals.
 */
import {
  type Abi,
  type AbiEvent,
  decodeErrorResult,
  decodeEventLog,
  type Hex,
  keccak256,
  toEventSelector,
  toHex,
} from "viem";
import { ACTORS, type Side } from "./deploy-pair.js";

const ROLE_HASHES = new Map<string, string>(
  ["MINTER_ROLE", "MANAGER_ROLE", "ARBITRAGEUR_ROLE", "STRATEGIST_ROLE", "PAUSER_ROLE", "BURNER_ROLE"].map((r) => [
    keccak256(toHex(r)),
    r,
  ]),
);
ROLE_HASHES.set(`0x${"0".repeat(64)}`, "DEFAULT_ADMIN_ROLE");

export type AddressBook = Map<string, string>;

export function addressBook(side: Side): AddressBook {
  const book: AddressBook = new Map([["0x0000000000000000000000000000000000000000", "0x0"]]);
  for (const [name, address] of Object.entries(ACTORS)) book.set(address.toLowerCase(), name);
  for (const [role, address] of Object.entries(side.addr)) book.set(address.toLowerCase(), role);
  return book;
}

export function formatValue(value: unknown, book: AddressBook): string {
  if (typeof value === "bigint" || typeof value === "number") return value.toString();
  if (typeof value === "boolean") return String(value);
  if (typeof value === "string") {
    if (/^0x[0-9a-fA-F]{40}$/.test(value)) return book.get(value.toLowerCase()) ?? value.toLowerCase();
    if (/^0x[0-9a-fA-F]{64}$/.test(value)) return ROLE_HASHES.get(value.toLowerCase()) ?? value.toLowerCase();
    if (value.startsWith("0x")) return value.toLowerCase();
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map((v) => formatValue(v, book)).join(", ")}]`;
  if (value && typeof value === "object") {
    return `{${Object.entries(value)
      .map(([k, v]) => `${k}: ${formatValue(v, book)}`)
      .join(", ")}}`;
  }
  return String(value);
}

/** Every error and event any contract on either side declares, so bubbled-up reverts decode too. */
export function unionAbi(abis: Abi[]): Abi {
  const seen = new Set<string>();
  const out: Abi[number][] = [];
  for (const abi of abis) {
    for (const item of abi) {
      if (item.type !== "error" && item.type !== "event") continue;
      const key = `${item.type}:${item.name}(${item.inputs.map((i) => `${i.type}${"indexed" in i && i.indexed ? "!" : ""}`).join(",")})`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(item);
    }
  }
  return out as Abi;
}

export function describeRevert(data: Hex, union: Abi, book: AddressBook): string {
  if (!data || data === "0x") return "(no data)";
  try {
    const { errorName, args } = decodeErrorResult({ abi: union, data });
    return `${errorName}(${(args ?? []).map((a) => formatValue(a, book)).join(", ")})`;
  } catch {
    return `unknown error ${data.slice(0, 10)} ${data.length > 10 ? `0x${data.slice(10)}` : ""}`.trim();
  }
}

export function describeLog(
  log: { address: string; topics: Hex[]; data: Hex },
  side: Side,
  union: Abi,
  book: AddressBook,
): string {
  const emitter = book.get(log.address.toLowerCase()) ?? log.address.toLowerCase();
  const own = (Object.entries(side.addr).find(([, a]) => a.toLowerCase() === log.address.toLowerCase())?.[0] ??
    "") as keyof Side["abi"];
  const candidates = [...(side.abi[own] ?? []), ...union].filter(
    (i): i is AbiEvent => i.type === "event" && log.topics[0] !== undefined && toEventSelector(i) === log.topics[0],
  );
  for (const event of candidates) {
    try {
      const decoded = decodeEventLog({
        abi: [event],
        data: log.data,
        topics: log.topics as [Hex, ...Hex[]],
        strict: true,
      });
      const args = decoded.args as unknown as Record<string, unknown> | unknown[];
      const values = event.inputs.map((input, i) => {
        const v = Array.isArray(args)
          ? args[i]
          : (args[input.name ?? ""] ?? (args as Record<string, unknown>)[String(i)]);
        return `${input.indexed ? "!" : ""}${formatValue(v, book)}`;
      });
      return `${emitter}.${event.name}(${values.join(", ")})`;
    } catch {
      // Same selector, other indexed layout: try the next candidate.
    }
  }
  return `${emitter}.<undecoded ${log.topics[0]?.slice(0, 10) ?? "anonymous"}> topics=${log.topics.length} data=${log.data}`;
}
