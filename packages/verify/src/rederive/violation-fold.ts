/**
 * The registry's violations folded from the chain's events in chain order, as the indexer folds
 * them into `registry_violation` (src/indexing/transfers.ts, psm.ts, vaults.ts): a transfer that
 * touches a registry account is classified by the version in force at its block; a violation
 * candidate is kept once per identity, and a later event of its own transaction that explains it
 * (a redemption or inventory-mint Swap, a vault withdrawal or queue claim, a flash loan's return
 * leg) takes it out again. Pure: the edge reads the logs (violations-from-logs.ts).
 */
import { candidateId, classifyTransfer, explains, type RegistryIndex, type ViolationRow } from "@kusd/core";
import type { Address, Hex } from "viem";

type Place = { txHash: Hex; blockNumber: bigint; logIndex: number };

export type RegistryEvent = Place &
  (
    | { kind: "transfer"; token: Address; from: Address; to: Address; amount: bigint }
    | { kind: "swap"; psm: Address; user: Address; fromToken: Address; amount: bigint; fee: bigint }
    /** An ERC-4626 Withdraw or a withdrawal-queue claim: `assets` of the vault's `asset` paid to `receiver`. */
    | { kind: "withdrawal"; vault: Address; asset: Address; receiver: Address; assets: bigint }
  );

export type FoldContext = {
  index: RegistryIndex;
  /** Every account the indexer follows (the network's registryAccounts), lower case. */
  listed: ReadonlySet<string>;
  usdc: Address;
  kUSD: Address;
  tokenSymbol: (token: Address) => string;
  /** The time the registry rule compares with versions' issued_at for a block (see violations-from-logs.ts). */
  registryTime: (block: bigint) => number;
};

/** A violation as the indexer keeps it, less its block time (read for the few blocks that hold one). */
export type FoldedViolation = Omit<ViolationRow, "timestamp">;

export const chainOrder = (a: Place, b: Place) =>
  a.blockNumber < b.blockNumber ? -1 : a.blockNumber > b.blockNumber ? 1 : a.logIndex - b.logIndex;

export function foldViolations(events: readonly RegistryEvent[], c: FoldContext): FoldedViolation[] {
  const candidates = new Map<string, FoldedViolation>();
  const lower = (a: string) => a.toLowerCase() as Address;
  for (const e of [...events].sort(chainOrder)) {
    if (e.kind === "transfer") {
      const t = { ...e, token: lower(e.token), from: lower(e.from), to: lower(e.to) };
      const toListed = c.listed.has(t.to);
      if (!c.listed.has(t.from) && !toListed) continue;
      const { class: cls, version } = classifyTransfer(c.index, {
        from: t.from,
        to: t.to,
        at: c.registryTime(t.blockNumber),
      });
      if (cls === "violation") {
        const id = candidateId(t);
        // The indexer inserts a candidate once per identity (onConflictDoNothing).
        if (!candidates.has(id))
          candidates.set(id, {
            id,
            token: t.token,
            tokenSymbol: c.tokenSymbol(t.token),
            from: t.from,
            to: t.to,
            amount: t.amount,
            registryVersion: version!,
            txHash: t.txHash,
            blockNumber: t.blockNumber,
            logIndex: t.logIndex,
          });
      } else if (cls === "inbound" && toListed) candidates.delete(explains.returnLeg(t));
    } else if (e.kind === "swap") {
      const redeem = lower(e.fromToken) === lower(c.kUSD);
      candidates.delete(
        redeem
          ? explains.redemption({
              txHash: e.txHash,
              usdc: c.usdc,
              psm: e.psm,
              user: e.user,
              kusdIn: e.amount,
              fee: e.fee,
            })
          : explains.mintFromInventory({
              txHash: e.txHash,
              kusd: c.kUSD,
              psm: e.psm,
              user: e.user,
              usdcIn: e.amount,
              fee: e.fee,
            }),
      );
    } else {
      candidates.delete(
        explains.withdrawal({
          txHash: e.txHash,
          asset: e.asset,
          vault: e.vault,
          receiver: e.receiver,
          assets: e.assets,
        }),
      );
    }
  }
  return [...candidates.values()].sort(chainOrder);
}
