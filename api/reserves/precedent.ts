/**
 * redemptionDepth.precedent: the redemptions that actually happened, from the indexed PSM
 * Swap(kUSD → USDC) events, with each redeemer's relationship to the operator taken from the
 * account registry version in force when it redeemed.
 */
import { getAddress, zeroAddress, type Address } from "viem";
import type { RegistryVersionConfig } from "../../core/network/registry-config.js";
import type { IndexedRedemption } from "../indexed/reads.js";
import { listedEntryAt } from "../../core/registry/versions.js";
import { isoDate, toUnits } from "../../core/reserves/units.js";

export type PsmLabel = { key: string; address: Address; label: string };

export type PrecedentInputs = {
  redemptions: readonly IndexedRedemption[];
  psms: readonly PsmLabel[];
  registry: readonly RegistryVersionConfig[];
  kusdBurned: bigint;
  completeAsOf: { blockNumber: bigint; timestamp: number };
  kusd: Address;
  fromBlock: number;
  rpcUrl: string;
};

/**
 * A redeemer as the registry in force then lists it: the founder wallet is the operator's own
 * externally owned accounts; anything unlisted is external.
 */
export function relationship(registry: readonly RegistryVersionConfig[], redeemer: Address, at: number): { text: string; founder: boolean; listed: boolean } {
  const entry = listedEntryAt(registry, redeemer, at);
  if (!entry) return { text: "external: not an account of the operator's registry", founder: false, listed: false };
  return { text: `operator account (registry role ${entry.role}: ${entry.label})`, founder: entry.kind === "eoa", listed: true };
}

export function buildPrecedent(p: PrecedentInputs) {
  const label = new Map(p.psms.map((x) => [x.address.toLowerCase(), x]));
  const firstAt = new Map<string, string>();
  let externalCount = 0;
  let allFounder = p.redemptions.length > 0;
  let kusdTotal = 0n;
  let usdcTotal = 0n;
  let burnedByRedemptions = 0n;

  const transactions = p.redemptions.map((r) => {
    const psm = label.get(r.psm.toLowerCase());
    const rel = relationship(p.registry, r.user, Number(r.timestamp));
    if (!rel.founder) allFounder = false;
    if (!rel.listed) externalCount++;
    kusdTotal += r.kusdAmount;
    usdcTotal += r.usdcAmount;
    burnedByRedemptions += r.kusdBurned;
    const notes: string[] = [];
    if (!firstAt.has(r.psmKey)) {
      firstAt.set(r.psmKey, r.id);
      notes.push(`first redemption against ${psm?.label ?? r.psmKey}`);
    }
    if (!rel.founder && externalCount === 1 && !notes.includes("first external redemption")) notes.push("first external redemption");
    return {
      date: isoDate(Number(r.timestamp)),
      txHash: r.txHash,
      blockNumber: Number(r.blockNumber),
      psmAddress: getAddress(r.psm),
      psmLabel: psm?.label ?? r.psmKey,
      psmKey: r.psmKey,
      kusdRedeemed: toUnits(r.kusdAmount, 18),
      usdcPaidOut: toUnits(r.usdcAmount, 6),
      feeBps: r.feeBps,
      kusdBurned: toUnits(r.kusdBurned, 18),
      redeemer: getAddress(r.user),
      redeemerRelationship: rel.text,
      significance: notes.join("; ") || "routine redemption",
    };
  });

  const swapSig = "'Swap(address indexed,address indexed,address indexed,uint256,uint256)'";
  const to = p.completeAsOf.blockNumber;
  return {
    executedRedemptions: transactions.length,
    totalRedeemedKUSD: toUnits(kusdTotal, 18),
    totalPaidOutUSDC: toUnits(usdcTotal, 6),
    externalRedemptionsToDate: externalCount,
    allRedemptionsByFounderWallet: allFounder,
    // Every Transfer-to-zero counts, the live PSM's self-burns on redemption included: spec 2.3
    // rule 5 ("a redemption does not burn") holds for PSM v1 and v3 only, not for the deployed
    // live PSM while minting is enabled.
    lifetimeKUSDBurned: toUnits(p.kusdBurned, 18),
    lifetimeKUSDBurnedWei: p.kusdBurned.toString(),
    redemptionBurnedKUSD: toUnits(burnedByRedemptions, 18),
    completeAsOf: isoDate(p.completeAsOf.timestamp),
    completeAsOfBlock: Number(to),
    transactions,
    note:
      "Every Swap(kUSD → USDC) emitted by the three PSMs up to completeAsOfBlock, from the indexer. A redemption is one transaction against one PSM, paid from that PSM's own USDC. What happens to the kUSD taken in depends on the deployed PSM: PSM v1 and the retired v3 keep it as inventory (totalSupply unchanged, outstanding falls); the live mint PSM burns it while minting is enabled (totalSupply falls by the amount; kusdBurned per transaction) and keeps it while minting is off. The spec's rule that a redemption never burns is therefore not what the live PSM does.",
    verifyVia: [
      ...p.psms.map((x) => `cast logs --from-block ${p.fromBlock} --to-block ${to} --address ${x.address} ${swapSig} --rpc-url ${p.rpcUrl}  # ${x.key}: redemptions are the Swap logs whose fromToken (topic 2) is kUSD ${p.kusd}`),
      `cast logs --from-block ${p.fromBlock} --to-block ${to} --address ${p.kusd} 'Transfer(address indexed,address indexed,uint256)' '' ${zeroAddress} --rpc-url ${p.rpcUrl}  # lifetimeKUSDBurnedWei = sum of these amounts (${p.kusdBurned})`,
    ],
  };
}
