/**
 * Who an address is, as the account registry (GET <api>/api/por/accounts) names it. Alerts name
 * the role and label of each address so an operator need not look them up; case-insensitive
 * because feeds return checksummed addresses and people paste lower-case ones.
 */
export type RegistryEntry = { role: string; label: string };
export type RegistryLookup = (address: string) => RegistryEntry | null;

export const NOT_IN_REGISTRY = "not in the registry";

export function registryLookup(
  entries: ReadonlyArray<{ address: string; role: string; label: string }>,
): RegistryLookup {
  const byAddress = new Map(entries.map((e) => [e.address.toLowerCase(), { role: e.role, label: e.label }]));
  return (address) => byAddress.get(address.toLowerCase()) ?? null;
}

/** `0xabc… (role: treasury, label "Ops wallet")`, or `0xabc… (not in the registry)`. */
export function describeAddress(lookup: RegistryLookup, address: unknown): string {
  if (typeof address !== "string") return "unknown address";
  const e = lookup(address);
  return e ? `${address} (role: ${e.role}, label "${e.label}")` : `${address} (${NOT_IN_REGISTRY})`;
}

/** Reads the registry the API serves; the monitor refreshes it when a new version is published. */
export async function fetchRegistry(apiUrl: string, signal?: AbortSignal): Promise<RegistryLookup> {
  const res = await fetch(`${apiUrl}/api/por/accounts`, { signal: signal ?? AbortSignal.timeout(15_000) });
  if (!res.ok) return () => null;
  const doc = (await res.json()) as {
    registry?: { entries?: Array<{ statement: { address: string; role: string; label: string } }> };
  };
  return registryLookup((doc.registry?.entries ?? []).map((e) => e.statement));
}
