/**
 * Spec 2.6 rule 2 (and rule 3) as pure functions, shared by the indexer and the tests. A
 * transfer out of an account listed in the registry version in force at its block time is:
 * - `internal` when it goes to an account listed in that version;
 * - `burn` when it goes to the zero address;
 * - `disclosed_venue_deposit` when it goes to a venue contract named under
 *   disclosed_venue_deposits of that version (its issued_at precedes the transfer);
 * - otherwise a violation candidate, which a later event of the same transaction can still
 *   explain: the PSM's Swap paying a redemption, the PSM's Swap paying a mint out of its kUSD
 *   inventory (the deployed PSMs do that while minting is off), an ERC-4626 Withdraw or a
 *   withdrawal-queue claim paying the withdrawing owner, or the return leg of a flash loan
 *   (see `explains`).
 */
import { zeroAddress } from "viem";
import type { RegistryVersionConfig } from "../network/registry-config.js";

export type TransferClass =
  | "inbound"
  | "internal"
  | "burn"
  | "disclosed_venue_deposit"
  | "redemption_payout"
  | "mint_payout"
  | "vault_withdrawal"
  | "flash_loan"
  | "violation";

export type RegistryIndex = {
  /** Versions sorted by issued_at, each with lower-cased address sets for fast lookups. */
  versions: { version: number; issuedAt: number; listed: Set<string>; disclosed: Set<string> }[];
};

export function indexRegistry(versions: readonly RegistryVersionConfig[]): RegistryIndex {
  return {
    versions: [...versions]
      .sort((a, b) => a.issued_at - b.issued_at || a.registry_version - b.registry_version)
      .map((v) => ({
        version: v.registry_version,
        issuedAt: v.issued_at,
        listed: new Set(v.entries.map((e) => e.address.toLowerCase())),
        disclosed: new Set(v.disclosed_venue_deposits.map((x) => x.address.toLowerCase())),
      })),
  };
}

export function versionInForce(index: RegistryIndex, at: number) {
  let found: RegistryIndex["versions"][number] | null = null;
  for (const v of index.versions) if (v.issuedAt <= at) found = v;
  return found;
}

/** The class of a transfer at block time `at`; `violation` means "candidate" until the transaction ends. */
export function classifyTransfer(
  index: RegistryIndex,
  t: { from: string; to: string; at: number },
): { class: TransferClass; version: number | null } {
  const v = versionInForce(index, t.at);
  if (!v?.listed.has(t.from.toLowerCase())) return { class: "inbound", version: v?.version ?? null };
  const to = t.to.toLowerCase();
  if (to === zeroAddress) return { class: "burn", version: v.version };
  if (v.listed.has(to)) return { class: "internal", version: v.version };
  if (v.disclosed.has(to)) return { class: "disclosed_venue_deposit", version: v.version };
  return { class: "violation", version: v.version };
}

/** Identity of a candidate: what a later event of the same transaction can name exactly. */
export const candidateId = (c: { txHash: string; token: string; from: string; to: string; amount: bigint }) =>
  `${c.txHash}:${c.token.toLowerCase()}:${c.from.toLowerCase()}:${c.to.toLowerCase()}:${c.amount}`;

/**
 * The candidates a later event of the same transaction explains:
 * - a redemption Swap(user, kUSD → USDC, amount, fee) on PSM p pays (amount − fee) / 1e12 USDC from p to user;
 * - Withdraw(sender, receiver, owner, assets, shares) on vault v pays `assets` of v's asset from v to receiver;
 * - a transfer X → L returns a loan that went L → X in the same transaction (same token, amount).
 */
export const explains = {
  redemption: (e: { txHash: string; usdc: string; psm: string; user: string; kusdIn: bigint; fee: bigint }) =>
    candidateId({ txHash: e.txHash, token: e.usdc, from: e.psm, to: e.user, amount: (e.kusdIn - e.fee) / 10n ** 12n }),
  /** A mint with minting off: the PSM hands out (amount − fee) USDC units of its own kUSD. */
  mintFromInventory: (e: { txHash: string; kusd: string; psm: string; user: string; usdcIn: bigint; fee: bigint }) =>
    candidateId({ txHash: e.txHash, token: e.kusd, from: e.psm, to: e.user, amount: (e.usdcIn - e.fee) * 10n ** 12n }),
  withdrawal: (e: { txHash: string; asset: string; vault: string; receiver: string; assets: bigint }) =>
    candidateId({ txHash: e.txHash, token: e.asset, from: e.vault, to: e.receiver, amount: e.assets }),
  returnLeg: (e: { txHash: string; token: string; from: string; to: string; amount: bigint }) =>
    candidateId({ txHash: e.txHash, token: e.token, from: e.to, to: e.from, amount: e.amount }),
};
