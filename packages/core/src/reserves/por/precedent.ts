/**
 * redemptionDepth.precedent: the redemptions that actually happened, from the indexed PSM
 * Swap(kUSD → USDC) events, with each redeemer's relationship to the operator taken from the
 * account registry version in force when it redeemed.
 */
import { type Address, getAddress, type Hex, zeroAddress } from "viem";
import { z } from "zod";
import type { RegistryVersionConfig } from "../../network/registry-config.js";
import { listedEntryAt } from "../../registry/versions.js";
import { addressSchema, hash32Schema, isoDateSchema, verifyViaSchema, weiSchema } from "../../schema-primitives.js";
import { isoDate, toUnits } from "../units.js";

export type PsmLabel = { key: string; address: Address; label: string };

/** One indexed redemption: the fields of the indexer's psm_swap row the precedent reads. */
export type PrecedentRedemption = {
  id: string;
  psmKey: string;
  psm: Hex;
  user: Hex;
  usdcAmount: bigint;
  kusdAmount: bigint;
  feeBps: number;
  kusdBurned: bigint;
  txHash: Hex;
  blockNumber: bigint;
  timestamp: bigint;
};

export type PrecedentInputs = {
  redemptions: readonly PrecedentRedemption[];
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
export function relationship(
  registry: readonly RegistryVersionConfig[],
  redeemer: Address,
  at: number,
): { text: string; founder: boolean; listed: boolean } {
  const entry = listedEntryAt(registry, redeemer, at);
  if (!entry) return { text: "external: not an account of the operator's registry", founder: false, listed: false };
  return {
    text: `operator account (registry role ${entry.role}: ${entry.label})`,
    founder: entry.kind === "eoa",
    listed: true,
  };
}

export const PrecedentTransactionSchema = z.strictObject({
  date: isoDateSchema,
  txHash: hash32Schema,
  blockNumber: z.int(),
  psmAddress: addressSchema,
  psmLabel: z.string(),
  psmKey: z.string(),
  kusdRedeemed: z.number(),
  usdcPaidOut: z.number(),
  feeBps: z.int().describe("integer basis points"),
  kusdBurned: z.number().describe("kUSD the PSM burned in this redemption (the live PSM while minting is on), else 0"),
  redeemer: addressSchema,
  redeemerRelationship: z
    .string()
    .describe("as the account registry version in force at the redemption lists the redeemer"),
  significance: z.string(),
});
export type PrecedentTransaction = z.infer<typeof PrecedentTransactionSchema>;

export const PrecedentSchema = z.strictObject({
  executedRedemptions: z.int(),
  totalRedeemedKUSD: z.number(),
  totalPaidOutUSDC: z.number(),
  externalRedemptionsToDate: z.int().describe("redemptions by accounts the registry in force did not list"),
  allRedemptionsByFounderWallet: z.boolean(),
  lifetimeKUSDBurned: z
    .number()
    .describe("every Transfer to the zero address, the live PSM's redemption burns included"),
  lifetimeKUSDBurnedWei: weiSchema,
  redemptionBurnedKUSD: z.number(),
  completeAsOf: isoDateSchema.describe("the date of the block the indexed history is complete to"),
  completeAsOfBlock: z.int(),
  transactions: z.array(PrecedentTransactionSchema),
  note: z.string(),
  verifyVia: verifyViaSchema,
});
export type Precedent = z.infer<typeof PrecedentSchema>;

function transactions(p: PrecedentInputs) {
  const label = new Map(p.psms.map((x) => [x.address.toLowerCase(), x]));
  const firstAt = new Map<string, string>();
  const totals = { externalCount: 0, allFounder: p.redemptions.length > 0, kusd: 0n, usdc: 0n, burned: 0n };
  const rows = p.redemptions.map((r): PrecedentTransaction => {
    const psm = label.get(r.psm.toLowerCase());
    const rel = relationship(p.registry, r.user, Number(r.timestamp));
    if (!rel.founder) totals.allFounder = false;
    if (!rel.listed) totals.externalCount++;
    totals.kusd += r.kusdAmount;
    totals.usdc += r.usdcAmount;
    totals.burned += r.kusdBurned;
    const notes: string[] = [];
    if (!firstAt.has(r.psmKey)) {
      firstAt.set(r.psmKey, r.id);
      notes.push(`first redemption against ${psm?.label ?? r.psmKey}`);
    }
    if (!rel.founder && totals.externalCount === 1 && !notes.includes("first external redemption"))
      notes.push("first external redemption");
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
  return { rows, totals };
}

export function buildPrecedent(p: PrecedentInputs): Precedent {
  const { rows, totals } = transactions(p);
  const swapSig = "'Swap(address indexed,address indexed,address indexed,uint256,uint256)'";
  const to = p.completeAsOf.blockNumber;
  return {
    executedRedemptions: rows.length,
    totalRedeemedKUSD: toUnits(totals.kusd, 18),
    totalPaidOutUSDC: toUnits(totals.usdc, 6),
    externalRedemptionsToDate: totals.externalCount,
    allRedemptionsByFounderWallet: totals.allFounder,
    // Every Transfer-to-zero counts, the live PSM's self-burns on redemption included: spec 2.3
    // rule 5 ("a redemption does not burn") holds for PSM v1 and v3 only, not for the deployed
    // live PSM while minting is enabled.
    lifetimeKUSDBurned: toUnits(p.kusdBurned, 18),
    lifetimeKUSDBurnedWei: p.kusdBurned.toString(),
    redemptionBurnedKUSD: toUnits(totals.burned, 18),
    completeAsOf: isoDate(p.completeAsOf.timestamp),
    completeAsOfBlock: Number(to),
    transactions: rows,
    note: "Every Swap(kUSD → USDC) emitted by the three PSMs up to completeAsOfBlock, from the indexer. A redemption is one transaction against one PSM, paid from that PSM's own USDC. What happens to the kUSD taken in depends on the deployed PSM: PSM v1 and the retired v3 keep it as inventory (totalSupply unchanged, outstanding falls); the live mint PSM burns it while minting is enabled (totalSupply falls by the amount; kusdBurned per transaction) and keeps it while minting is off. The spec's rule that a redemption never burns is therefore not what the live PSM does.",
    verifyVia: [
      ...p.psms.map(
        (x) =>
          `cast logs --from-block ${p.fromBlock} --to-block ${to} --address ${x.address} ${swapSig} --rpc-url ${p.rpcUrl}  # ${x.key}: redemptions are the Swap logs whose fromToken (topic 2) is kUSD ${p.kusd}`,
      ),
      `cast logs --from-block ${p.fromBlock} --to-block ${to} --address ${p.kusd} 'Transfer(address indexed,address indexed,uint256)' '' ${zeroAddress} --rpc-url ${p.rpcUrl}  # lifetimeKUSDBurnedWei = sum of these amounts (${p.kusdBurned})`,
    ],
  };
}
