/**
 * The reads behind a point of /api/history, the same for the service's reproduction commands and a
 * reader's re-derivation: kUSD's totalSupply, each PSM's USDC and kUSD at the point's block (one
 * aggregate3), and skUSD's convertToAssets of one whole share at the share-price sample's block.
 */
import { type NetworkConfig, PSM_KEYS, type PsmKey } from "@kusd/core";
import type { Address } from "viem";
import { ChainReadError, type PinnedReader, type ReadSpec } from "./pinned-reader.js";

/** One whole skUSD share (skUSD has 24 decimals), as the indexer samples it. */
export const SKUSD_ONE_SHARE = 10n ** 24n;

const balanceOf = (token: Address, holder: Address): ReadSpec => ({
  to: token,
  signature: "balanceOf(address)(uint256)",
  args: [holder],
});

export function historyReadSpecs(n: NetworkConfig) {
  const byPsm = (token: Address) =>
    Object.fromEntries(PSM_KEYS.map((k) => [k, balanceOf(token, n.psms[k].address)])) as Record<PsmKey, ReadSpec>;
  return {
    supply: { to: n.kUSD.address, signature: "totalSupply()(uint256)" } as ReadSpec,
    usdc: byPsm(n.usdc.address),
    kusd: byPsm(n.kUSD.address),
    sharePrice: {
      to: n.stakingVaults.skUSD.address,
      signature: "convertToAssets(uint256)(uint256)",
      args: [SKUSD_ONE_SHARE],
    } as ReadSpec,
  };
}

/** The commands that reproduce a point's supply, balances and PSM kUSD at its block. */
export function historyVerifyCommands(r: PinnedReader, n: NetworkConfig): string[] {
  const x = historyReadSpecs(n);
  return [
    r.recheckCommand(x.supply, "kusdSupplyWei"),
    ...PSM_KEYS.map((k) => r.recheckCommand(x.usdc[k], `psmUSDC.${k} (6 decimals)`)),
    ...PSM_KEYS.map((k) => r.recheckCommand(x.kusd[k], `kUSD held by ${k} (kusdOutstandingWei = supply − these)`)),
    r.recheckCommand(x.sharePrice, "skusdSharePrice (at its own block)"),
  ];
}

export type HistoryPointReads = { supply: bigint; usdc: Record<PsmKey, bigint>; kusd: Record<PsmKey, bigint> };

/** Supply and the PSMs' balances at the reader's block, in one batch. */
export async function readHistoryPoint(r: PinnedReader, n: NetworkConfig): Promise<HistoryPointReads> {
  const x = historyReadSpecs(n);
  const each = (specs: Record<PsmKey, ReadSpec>) =>
    Promise.all(PSM_KEYS.map((k) => r.call<bigint>(specs[k]))).then(
      (v) => Object.fromEntries(PSM_KEYS.map((k, i) => [k, v[i]!])) as Record<PsmKey, bigint>,
    );
  const [supply, usdc, kusd] = await Promise.all([r.call<bigint>(x.supply), each(x.usdc), each(x.kusd)]);
  return { supply, usdc, kusd };
}

/** skUSD's kUSD per share at a sample block; null where skUSD has no code yet (the indexer keeps no sample there). */
export async function readSharePriceSample(r: PinnedReader, n: NetworkConfig): Promise<bigint | null> {
  const spec = historyReadSpecs(n).sharePrice;
  const o = await r.outcome<bigint>(spec);
  if (o.ok) return o.value;
  if (o.kind === "no data") return null;
  throw new ChainReadError(`read failed: ${spec.signature} on ${spec.to}`, {
    to: spec.to,
    signature: spec.signature,
    block: r.blockNumber,
    cause: o.cause,
  });
}
