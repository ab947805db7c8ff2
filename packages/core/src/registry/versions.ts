/**
 * Which registry version is in force at an instant: the newest whose issued_at is at or before
 * it (spec 2.6 rule 3: a disclosure takes effect from its version's issued_at).
 */
import { type Address, getAddress } from "viem";
import type { RegistryEntryConfig, RegistryVersionConfig } from "../network/registry-config.js";

export function registryVersionAt(
  versions: readonly RegistryVersionConfig[],
  at: number,
): RegistryVersionConfig | null {
  let inForce: RegistryVersionConfig | null = null;
  for (const v of versions)
    if (v.issued_at <= at && (!inForce || v.registry_version > inForce.registry_version)) inForce = v;
  return inForce;
}

/** The entry listing `address` in the version in force at `at`, or null when it is not listed. */
export function listedEntryAt(
  versions: readonly RegistryVersionConfig[],
  address: Address,
  at: number,
): RegistryEntryConfig | null {
  const v = registryVersionAt(versions, at);
  const a = getAddress(address);
  return v?.entries.find((e) => getAddress(e.address) === a) ?? null;
}

/** Every address listed in any version (an account once listed stays the operator's). */
export function everListed(versions: readonly RegistryVersionConfig[]): RegistryEntryConfig[] {
  const seen = new Map<string, RegistryEntryConfig>();
  for (const v of [...versions].sort((x, y) => x.registry_version - y.registry_version))
    for (const e of v.entries) seen.set(getAddress(e.address), e);
  return [...seen.values()];
}
