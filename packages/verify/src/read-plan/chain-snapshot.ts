/**
 * Every on-chain read the reserves report makes, at one pinned block, each with its
 * reproduction command: fills the snapshot types of packages/core/src/reserves/por/snapshot.ts.
 * Raw integers only; conversion and formulas happen in the pure assembler. A read that fails is
 * `null` (reported as unknown), never a guess and never a 5xx. How each read is made is in
 * snapshot-reads.ts (and psm-reads.ts); this file is the plan: which reads, of which accounts.
 */

import { type ChainSnapshot, MINTER_ROLE, PSM_KEYS } from "@kusd/core";
import type { Address } from "viem";
import type { SnapshotAddresses } from "./addresses.js";
import { allOf } from "./all-of.js";
import type { PinnedReader } from "./pinned-reader.js";
import { SnapshotReads } from "./snapshot-reads.js";

export { readPsmSnapshots } from "./psm-reads.js";
export type { SnapshotAddresses };
// The API's route modules import these from here.
export { MINTER_ROLE, PSM_KEYS };

/**
 * Every read of the reserves report at the reader's block, in two rounds (each one aggregate3 on
 * the wire): what needs nothing else, then what needs a value read in the first (a vault's
 * convertToAssets of one whole share and of its whole supply, the escrow shares' kUSD).
 * `timestamp` is the block's, when the caller read its header already.
 */
export async function readChainSnapshot(
  r: PinnedReader,
  a: SnapshotAddresses,
  timestamp?: number,
): Promise<ChainSnapshot> {
  const x = new SnapshotReads(r, a);
  const escrow = a.lendingEscrowKUSD ? x.escrowPosition(a.lendingEscrowKUSD, a.operator) : null;
  // Every read below is asked as the plan is built: the first round is one batch.
  const snapshot = await allOf({
    blockNumber: r.blockNumber,
    blockTimestamp: timestamp ?? x.blockTimestamp(),
    kusdTotalSupply: x.uint(a.kUSD, "totalSupply()(uint256)", 18),
    psms: allOf({
      psmMint: x.psm("psmMint"),
      psmRetiredMint: x.psm("psmRetiredMint"),
      psmRedeemReserve: x.psm("psmRedeemReserve"),
    }),
    vaultV1: x.depositVault(a.vaultV1),
    vaultV2: x.depositVault(a.vaultV2),
    skUSD: x.stakingVault(a.skUSD),
    skUSDDeprecated: x.stakingVault(a.skUSDDeprecated),
    insuranceFund: x.holder(a.insuranceFund),
    treasury: x.holder(a.treasury),
    multisig: Promise.all([
      x.holder(a.multisig),
      allOf({
        threshold: x.uint(a.multisig, "getThreshold()(uint256)"),
        owners: x.value<readonly Address[]>(a.multisig, "getOwners()(address[])"),
      }),
    ]).then(([holder, safe]) => ({ ...holder, ...safe })),
    operator: allOf({
      address: a.operator,
      kusd: x.balanceOf(a.kUSD, a.operator, 18),
      escrowShares: escrow?.then((e) => e.shares) ?? null,
      escrowKusd: escrow?.then((e) => e.kusd) ?? null,
    }),
    hedgeWatchOnly: a.hedgeWatchOnly
      ? allOf({
          address: a.hedgeWatchOnly,
          eth: x.nativeBalance(a.hedgeWatchOnly),
          weth: x.balanceOf(a.weth, a.hedgeWatchOnly, 18),
        })
      : null,
    ethUsd: a.ethUsdFeed ? x.ethUsd(a.ethUsdFeed) : null,
  });
  return { ...snapshot, failedReads: x.failedReads, notDeployed: x.notDeployed };
}
