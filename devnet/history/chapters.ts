/**
 * The scripted story of the base devnet chain, chapter by chapter, in the order of their first
 * dates (devnet/timeline.ts). BaseHistory schedules them in this order before the periodic
 * activity and the users' days; the jobs then run in date order.
 */
import { ceremony } from "./ceremony.js";
import { genesis } from "./genesis.js";
import { lendingMarket } from "./lending-market.js";
import { mintPsmRedeploy } from "./mint-psm-redeploy.js";
import { operatorMovements } from "./operator-movements.js";
import { outsideDesks } from "./outside-desks.js";
import { psmOperations } from "./psm-operations.js";
import { redemptions } from "./redemptions.js";
import { stakingVaults } from "./staking-vaults.js";
import { timelockHandover } from "./timelock.js";
import { vaultV1Queue } from "./vault-v1.js";
import { vaultV2 } from "./vault-v2.js";
import type { Chapter } from "./writer.js";

export const STORY: readonly Chapter[] = [
  genesis, // 2026-05-14: external tokens, the protocol, the founder's seeds
  vaultV1Queue, // 2026-05-14 to 06-09: an outside depositor through vault v1's queue, the sweep
  ceremony, // 2026-06-16: the v3 PSM mints, vault v2
  stakingVaults, // 2026-07-03: skUSD redeployed, stakers migrated
  mintPsmRedeploy, // 2026-07-10: the live mint PSM
  redemptions, // 2026-07-20 to 10-05: founder and outside redemptions at all three PSMs
  psmOperations, // 2026-07-24 to 10-22: minting from inventory, fee skim, pause drill, the prior PSM capped
  vaultV2, // 2026-07-30 to 08-15: vault v2 shut, its MINTER_ROLE revoked, its mirror
  timelockHandover, // 2026-08-03 to 08-06: custody to the timelock
  lendingMarket, // 2026-08-08 to 08-20: the isolated lending market
  operatorMovements, // 2026-08-14 to 10-20: venue deposit, Safe funding, PSM top-up, the violation, insurance
  outsideDesks, // 2026-10-12 to 10-15: flash loan, fee ladder walk
];
