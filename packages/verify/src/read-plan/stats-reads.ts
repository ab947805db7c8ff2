/**
 * The reads behind /api/stats, made the same way by the service and a reader: each PSM's USDC and
 * kUSD and kUSD's totalSupply at the pinned block, with the `cast call` reproducing each. A read
 * that fails throws (the report publishes nothing rather than a guess).
 */
import type { NetworkConfig, PsmKey, StatsInputs } from "@kusd/core";
import { PSM_KEYS } from "@kusd/core";
import type { Address } from "viem";
import type { PinnedReader, ReadSpec } from "./pinned-reader.js";

export type StatsReads = Pick<StatsInputs, "psmUsdc" | "psmKusd" | "kusdSupply" | "verifyVia">;

const balanceOf = (token: Address, holder: Address): ReadSpec => ({
  to: token,
  signature: "balanceOf(address)(uint256)",
  args: [holder],
});

export async function readStats(
  r: PinnedReader,
  n: Pick<NetworkConfig, "usdc" | "kUSD" | "psms">,
): Promise<StatsReads> {
  const usdcSpecs = PSM_KEYS.map((k) => balanceOf(n.usdc.address, n.psms[k].address));
  const kusdSpecs = PSM_KEYS.map((k) => balanceOf(n.kUSD.address, n.psms[k].address));
  const supplySpec: ReadSpec = { to: n.kUSD.address, signature: "totalSupply()(uint256)" };
  const [usdc, kusd, supply] = await Promise.all([
    Promise.all(usdcSpecs.map((s) => r.call<bigint>(s))),
    Promise.all(kusdSpecs.map((s) => r.call<bigint>(s))),
    r.call<bigint>(supplySpec),
  ]);
  return {
    psmUsdc: Object.fromEntries(PSM_KEYS.map((k, i) => [k, usdc[i]!])) as Record<PsmKey, bigint>,
    psmKusd: kusd,
    kusdSupply: supply,
    verifyVia: [
      ...PSM_KEYS.map((k, i) => r.command(usdcSpecs[i]!, `USDC of ${k}`, usdc[i]!, 6)),
      ...PSM_KEYS.map((k, i) => r.command(kusdSpecs[i]!, `kUSD held by ${k}`, kusd[i]!, 18)),
      r.command(supplySpec, "kusdSupplyWei", supply, 18),
    ],
  };
}
