import { type Context, ponder } from "ponder:registry";
import { sharePrice, vaultEvent, vaultReport } from "ponder:schema";
import { createBlockLookahead, createSharePriceReader, explains, type ShareReading } from "@kusd/core";
import { countedHttp } from "@kusd/rpc";
import { type Address, createPublicClient, fallback, type Hex, zeroAddress } from "viem";
import { aggregate3Bytecode } from "../../abis/Aggregate3.js";
import { type ChangeAt, recordBalanceChange } from "./balance-changes.js";
import { logKey, logPlace } from "./event-row.js";
import { lower, network, vaultKeyOf } from "./lookup.js";
import { explainCandidate, recordRegistryTransfer } from "./transfers.js";

/** A holder's vault shares moved (`side` of the log); share_balance sums these. */
function addShares(
  context: Context,
  vault: Address,
  account: Address,
  delta: bigint,
  side: "from" | "to",
  at: ChangeAt,
) {
  return recordBalanceChange(context, {
    kind: "share",
    asset: vault,
    assetKey: vaultKeyOf(vault),
    account,
    delta,
    side,
    at,
  });
}

for (const source of ["StakingVault", "DepositVault"] as const) {
  ponder.on(`${source}:Deposit`, async ({ event, context }) => {
    const vault = lower(event.log.address);
    await context.db.insert(vaultEvent).values({
      id: logKey(event),
      vaultKey: vaultKeyOf(vault),
      vault,
      kind: "deposit",
      sender: lower(event.args.sender),
      to: lower(event.args.owner),
      assets: event.args.assets,
      shares: event.args.shares,
      ...logPlace(event),
    });
  });

  ponder.on(`${source}:Withdraw`, async ({ event, context }) => {
    const vault = lower(event.log.address);
    // The asset left the vault (a listed account) before this event: an ERC-4626 withdrawal, not a violation.
    const asset = source === "StakingVault" ? network.kUSD.address : network.weth.address;
    await explainCandidate(
      context,
      { blockNumber: event.block.number, txHash: event.transaction.hash },
      explains.withdrawal({
        txHash: event.transaction.hash,
        asset,
        vault,
        receiver: event.args.receiver,
        assets: event.args.assets,
      }),
      "vault_withdrawal",
    );
    await context.db.insert(vaultEvent).values({
      id: logKey(event),
      vaultKey: vaultKeyOf(vault),
      vault,
      kind: "withdraw",
      sender: lower(event.args.sender),
      from: lower(event.args.owner),
      to: lower(event.args.receiver),
      assets: event.args.assets,
      shares: event.args.shares,
      ...logPlace(event),
    });
  });

  // Mints and burns of shares are the Deposit/Withdraw above; they move balances here.
  ponder.on(`${source}:Transfer`, async ({ event, context }) => {
    const vault = lower(event.log.address);
    const from = lower(event.args.from);
    const to = lower(event.args.to);
    const at = { blockNumber: event.block.number, logIndex: event.log.logIndex };
    if (from !== zeroAddress) await addShares(context, vault, from, -event.args.value, "from", at);
    if (to !== zeroAddress) await addShares(context, vault, to, event.args.value, "to", at);
    if (source === "StakingVault") {
      // skUSD is one of the tokens whose registry-account transfers (mints and burns too) we keep.
      await recordRegistryTransfer(context, {
        token: vault,
        from,
        to,
        amount: event.args.value,
        logId: logKey(event),
        ...logPlace(event),
      });
    }
    if (from === zeroAddress || to === zeroAddress) return;
    await context.db.insert(vaultEvent).values({
      id: logKey(event),
      vaultKey: vaultKeyOf(vault),
      vault,
      kind: "transfer",
      from,
      to,
      shares: event.args.value,
      ...logPlace(event),
    });
  });
}

// The deposit vaults move WETH out by paths other than ERC-4626 Withdraw (both deployed versions
// force exits through a queue: withdraw/redeem revert). Each WETH Transfer out was already
// classified by the registry rule; a queue claim pays the claiming owner, so it is a withdrawal,
// while a sweep, an L1 deposit or a prime transfer stands or falls by its destination alone
// (a disclosed venue deposit or a listed account is no violation; anything else is).
ponder.on("DepositVault:WithdrawalRequested", async ({ event, context }) => {
  const vault = lower(event.log.address);
  await context.db.insert(vaultEvent).values({
    id: logKey(event),
    vaultKey: vaultKeyOf(vault),
    vault,
    kind: "withdrawal_request",
    from: lower(event.args.user),
    assets: event.args.assets,
    shares: event.args.shares,
    ...logPlace(event),
  });
});

ponder.on("DepositVault:WithdrawalClaimed", async ({ event, context }) => {
  const vault = lower(event.log.address);
  await explainCandidate(
    context,
    { blockNumber: event.block.number, txHash: event.transaction.hash },
    explains.withdrawal({
      txHash: event.transaction.hash,
      asset: network.weth.address,
      vault,
      receiver: event.args.user,
      assets: event.args.assets,
    }),
    "vault_withdrawal",
  );
  await context.db.insert(vaultEvent).values({
    id: logKey(event),
    vaultKey: vaultKeyOf(vault),
    vault,
    kind: "withdrawal_claim",
    to: lower(event.args.user),
    assets: event.args.assets,
    ...logPlace(event),
  });
});

for (const [name, kind] of [
  ["FundsSwept", "sweep"],
  ["L1DepositRequested", "l1_deposit"],
] as const) {
  ponder.on(`DepositVault:${name}`, async ({ event, context }) => {
    const vault = lower(event.log.address);
    const destination = "destination" in event.args ? event.args.destination : event.args.bridge;
    await context.db.insert(vaultEvent).values({
      id: logKey(event),
      vaultKey: vaultKeyOf(vault),
      vault,
      kind,
      to: lower(destination),
      assets: event.args.amount,
      ...logPlace(event),
    });
  });
}

ponder.on("StakingVault:YieldDistributed", async ({ event, context }) => {
  const vault = lower(event.log.address);
  await context.db.insert(vaultEvent).values({
    id: logKey(event),
    vaultKey: vaultKeyOf(vault),
    vault,
    kind: "yield",
    sender: lower(event.args.strategist),
    assets: event.args.amount,
    ...logPlace(event),
  });
});

for (const [name, field] of [
  ["L1AssetsUpdated", "l1Assets"],
  ["OffChainAssetsUpdated", "offChainAssets"],
  ["HedgingReserveUpdated", "hedgingReserve"],
] as const) {
  ponder.on(`DepositVault:${name}`, async ({ event, context }) => {
    const vault = lower(event.log.address);
    await context.db.insert(vaultReport).values({
      id: logKey(event),
      vaultKey: vaultKeyOf(vault),
      vault,
      field,
      oldAmount: event.args.oldAmount,
      newAmount: event.args.newAmount,
      txHash: event.transaction.hash,
      blockNumber: event.block.number,
      timestamp: event.block.timestamp,
    });
  });
}

// One eth_call per block for every vault (see share-price-reads.ts). Sent with `call`, not
// Ponder's `multicall`: Ponder profiles `multicall` and would prefetch each part as its own
// eth_call, the very cost the batch avoids. Ponder still caches the call by block and data.
const readSharePrices = createSharePriceReader(aggregate3Bytecode);

// Ponder cannot prefetch a deployless call, so the next intervals' reads are started here, each
// pinned to its block's hash (see createBlockLookahead), through a client of our own.
const ahead = createBlockLookahead<Map<Address, ShareReading>>();
// Counted under "indexing" in kusd_rpc_calls_total (Ponder's own requests are counted by Ponder).
const chain = createPublicClient({
  transport: fallback(network.chains.base.rpc.map((url) => countedHttp(url, "indexing"))),
});

/** Intervals read ahead: enough that a node answering one call at a time is never idle in a backfill. */
const LOOKAHEAD = 3n;

const vaultsAt = (block: bigint) =>
  Object.entries(network.stakingVaults).filter(([, d]) => BigInt(d.startBlock) <= block);

ponder.on("SharePrice:block", async ({ event, context }) => {
  const started = vaultsAt(event.block.number);
  // A start block may precede the deployment (a start from the day's first block): a vault
  // without code there is left out, not read as 0.
  const readings =
    (await ahead.take(event.block.number, event.block.hash)) ??
    (await readSharePrices(
      context.client,
      started.map(([, d]) => d.address),
    ));
  for (let k = 1n; k <= LOOKAHEAD; k++) {
    const next = event.block.number + k * BigInt(network.sharePriceInterval);
    ahead.start(next, async () => {
      const block = await chain.getBlock({ blockNumber: next });
      const pinned = {
        call: (args: { code: Hex; data: Hex }) =>
          chain.call({ ...args, blockHash: block.hash, requireCanonical: true }),
      };
      return {
        hash: block.hash,
        value: await readSharePrices(
          pinned,
          vaultsAt(next).map(([, d]) => d.address),
        ),
      };
    });
  }
  for (const [vaultKey, deployed] of started) {
    const reading = readings.get(deployed.address);
    if (!reading) continue;
    const vault = lower(deployed.address);
    await context.db.insert(sharePrice).values({
      id: `${vault}:${event.block.number}`,
      vaultKey,
      vault,
      ...reading,
      blockNumber: event.block.number,
      timestamp: event.block.timestamp,
    });
  }
});
