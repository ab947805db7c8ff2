import { type Context, ponder } from "ponder:registry";
import { roleEvent, roleHolder } from "ponder:schema";
import { ROLE_NAMES } from "@kusd/core";
import type { Hex } from "viem";
import { logKey } from "./event-row.js";
import { contractKeyOf, lower } from "./lookup.js";

type RoleArgs = { role: Hex; account: Hex; sender: Hex };

type RoleEvent = {
  args: RoleArgs;
  log: { address: Hex; logIndex: number };
  block: { number: bigint; timestamp: bigint };
  transaction: { hash: Hex };
};

async function recordRole(event: RoleEvent, context: Context, granted: boolean) {
  const contract = lower(event.log.address);
  const { role, account, sender } = event.args;
  const roleName = ROLE_NAMES.get(role) ?? null;
  const contractKey = contractKeyOf(contract);
  await context.db.insert(roleEvent).values({
    id: logKey(event),
    contractKey,
    contract,
    role,
    roleName,
    account: lower(account),
    sender: lower(sender),
    granted,
    txHash: event.transaction.hash,
    blockNumber: event.block.number,
    timestamp: event.block.timestamp,
  });
  await context.db
    .insert(roleHolder)
    .values({
      id: `${contract}:${role}:${lower(account)}`,
      contractKey,
      contract,
      role,
      roleName,
      account: lower(account),
      active: granted,
      sinceBlock: event.block.number,
    })
    .onConflictDoUpdate({ active: granted, sinceBlock: event.block.number });
}

for (const source of ["KUSD", "PSM", "StakingVault", "DepositVault"] as const) {
  ponder.on(`${source}:RoleGranted`, ({ event, context }) => recordRole(event, context, true));
  ponder.on(`${source}:RoleRevoked`, ({ event, context }) => recordRole(event, context, false));
}
