/**
 * Which accounts the reserves report reads, from the network's configuration alone (the network
 * document): the server and a reader re-deriving a statement read the same ones.
 */

import type { ListedAccount, NetworkConfig, PsmKey } from "@kusd/core";
import { everListed } from "@kusd/core";
import type { Address } from "viem";

export type SnapshotAddresses = {
  kUSD: Address;
  usdc: Address;
  weth: Address;
  psms: Record<PsmKey, Address>;
  vaultV1: Address;
  vaultV2: Address;
  skUSD: Address;
  skUSDDeprecated: Address;
  insuranceFund: Address;
  treasury: Address;
  multisig: Address;
  operator: Address;
  hedgeWatchOnly: Address | null;
  ethUsdFeed: Address | null;
  lendingEscrowKUSD: Address | null;
  /** Registry-listed accounts (their shares of the superseded vault are protocol-owned). */
  listedAccounts: Address[];
};

type ReadPlanNetwork = Pick<
  NetworkConfig,
  "kUSD" | "usdc" | "weth" | "psms" | "depositVaults" | "stakingVaults" | "lending" | "registry" | "reporting"
>;

export function snapshotAddresses(n: ReadPlanNetwork): SnapshotAddresses {
  const r = n.reporting;
  const listed = new Set<Address>([
    ...everListed(n.registry.versions).map((e) => e.address),
    r.operator,
    ...(r.hedgeWatchOnly ? [r.hedgeWatchOnly] : []),
  ]);
  return {
    kUSD: n.kUSD.address,
    usdc: n.usdc.address,
    weth: n.weth.address,
    psms: {
      psmMint: n.psms.psmMint.address,
      psmRetiredMint: n.psms.psmRetiredMint.address,
      psmRedeemReserve: n.psms.psmRedeemReserve.address,
    },
    vaultV1: n.depositVaults.vaultV1.address,
    vaultV2: n.depositVaults.vaultV2.address,
    skUSD: n.stakingVaults.skUSD.address,
    skUSDDeprecated: n.stakingVaults.skUSDDeprecated.address,
    insuranceFund: r.insuranceFund,
    treasury: r.treasury,
    multisig: r.multisig,
    operator: r.operator,
    hedgeWatchOnly: r.hedgeWatchOnly,
    ethUsdFeed: r.ethUsdFeed,
    lendingEscrowKUSD: n.lending.lendingEscrowKUSD?.address ?? null,
    listedAccounts: [...listed],
  };
}

/** The registry's accounts with their kind (externally owned = the founder's wallets). */
export function listedAccounts(n: Pick<ReadPlanNetwork, "registry" | "reporting">): ListedAccount[] {
  const r = n.reporting;
  const entries: ListedAccount[] = everListed(n.registry.versions).map((e) => ({
    address: e.address,
    kind: e.kind,
    role: e.role,
  }));
  for (const [address, role] of [
    [r.operator, "venue_margin"],
    [r.hedgeWatchOnly, "hedge_base_watch_only"],
  ] as const) {
    if (address && !entries.some((e) => e.address.toLowerCase() === address.toLowerCase()))
      entries.push({ address, kind: "eoa", role });
  }
  return entries;
}
