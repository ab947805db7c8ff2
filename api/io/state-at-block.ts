/**
 * The state tables as they were at a past block, rebuilt from indexed history: each is a
 * subquery with the same columns as the table or view it stands for (share_balance,
 * account_balance, role_holder), so a query written against it runs unchanged against the past.
 *   balances: the sum of each (asset, account)'s moves up to the block: `balance_change` deltas
 *     for shares, tokenBalanceMoves for registry accounts' tokens (the views in ponder.schema.ts
 *     are the same sums over all blocks);
 *   role holders: each (contract, role, account)'s last RoleGranted/RoleRevoked at or before it.
 */
import { desc, lte, sql } from "drizzle-orm";
import { QueryBuilder } from "drizzle-orm/pg-core";
import * as schema from "../../ponder.schema.js";

const re = schema.roleEvent;
// Subqueries need no connection: the caller's query runs them.
const qb = new QueryBuilder();

/** share_balance at `block`: every holder's vault shares after the block's last change. */
export function shareBalancesAt(block: bigint) {
  return schema.shareBalances(qb, block).as("share_balance");
}

/** account_balance at `block`: registry accounts' token balances after the block's last move. */
export function accountBalancesAt(block: bigint) {
  return schema.tokenBalances(qb, block).as("account_balance");
}

/**
 * role_holder at `block`. AccessControl emits RoleGranted only to a non-holder, so a holder's
 * last event is the grant that began the holding (`sinceBlock`), or the revocation that ended it.
 */
export function roleHoldersAtBlock(block: bigint) {
  return qb
    .selectDistinctOn([re.contract, re.role, re.account], {
      id: sql<string>`${re.contract} || ':' || ${re.role} || ':' || ${re.account}`.as("id"),
      contractKey: sql<string>`${re.contractKey}`.as("contract_key"),
      contract: sql<`0x${string}`>`${re.contract}`.as("contract"),
      role: sql<`0x${string}`>`${re.role}`.as("role"),
      roleName: sql<string | null>`${re.roleName}`.as("role_name"),
      account: re.account,
      active: sql<boolean>`${re.granted}`.as("active"),
      sinceBlock: sql<bigint>`${re.blockNumber}`.mapWith(BigInt).as("since_block"),
    })
    .from(re)
    .where(lte(re.blockNumber, block))
    .orderBy(re.contract, re.role, re.account, desc(re.blockNumber), desc(re.id))
    .as("role_holder");
}
