/**
 * The reads behind /api/psm-status, made the same way by the service and a reader: each PSM's
 * mint gates at the pinned block (mintingEnabled, paused, supportedStables, stableCaps and
 * currentExposure of USDC, its USDC, kUSD hasRole(MINTER_ROLE)), each null when it fails and named
 * in failedReads, or in notDeployed before the PSM had code.
 */
import {
  MINTER_ROLE,
  type NetworkConfig,
  type NotDeployedRead,
  PSM_KEYS,
  PSM_LABELS,
  PSM_VERSIONS,
  type PsmStatusEntry,
  psmStatusEntry,
} from "@kusd/core";
import type { Address } from "viem";
import { type PinnedReader, type ReadSpec, tolerantReads } from "./pinned-reader.js";

export type PsmGateReads = { entries: PsmStatusEntry[]; failedReads: string[]; notDeployed: NotDeployedRead[] };

export async function readPsmGates(
  r: PinnedReader,
  n: Pick<NetworkConfig, "usdc" | "kUSD" | "psms">,
): Promise<PsmGateReads> {
  const { read, failedReads, notDeployed } = tolerantReads(r);
  const usdc = n.usdc.address;
  const entries = await Promise.all(
    PSM_KEYS.map(async (key) => {
      const psm: Address = n.psms[key].address;
      const specs: Record<string, [ReadSpec, number?]> = {
        mintingEnabled: [{ to: psm, signature: "mintingEnabled()(bool)" }],
        paused: [{ to: psm, signature: "paused()(bool)" }],
        supportedStables: [{ to: psm, signature: "supportedStables(address)(bool)", args: [usdc] }],
        stableCaps: [{ to: psm, signature: "stableCaps(address)(uint256)", args: [usdc] }, 6],
        currentExposure: [{ to: psm, signature: "currentExposure(address)(uint256)", args: [usdc] }, 6],
        usdcBalance: [{ to: usdc, signature: "balanceOf(address)(uint256)", args: [psm] }, 6],
        psmHasMinterRole: [
          { to: n.kUSD.address, signature: "hasRole(bytes32,address)(bool)", args: [MINTER_ROLE, psm] },
        ],
      };
      const names = Object.keys(specs);
      const reads = await Promise.all(names.map((name) => read<bigint | boolean>(specs[name]![0], specs[name]![1])));
      const value = <T>(name: string) => (reads[names.indexOf(name)]?.value ?? null) as T | null;
      const commands = Object.fromEntries(
        names.flatMap((name, i) => (reads[i] ? [[name, reads[i]!.command(`gates.${name}`)]] : [])),
      );
      return psmStatusEntry({
        key,
        label: PSM_LABELS[key].label,
        version: PSM_VERSIONS[key],
        address: psm,
        gates: {
          mintingEnabled: value<boolean>("mintingEnabled"),
          paused: value<boolean>("paused"),
          supportedStables: value<boolean>("supportedStables"),
          stableCaps: value<bigint>("stableCaps"),
          currentExposure: value<bigint>("currentExposure"),
          usdcBalance: value<bigint>("usdcBalance"),
          psmHasMinterRole: value<boolean>("psmHasMinterRole"),
        },
        commands,
      });
    }),
  );
  return { entries, failedReads, notDeployed };
}
