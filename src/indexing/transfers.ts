import { type Context, ponder } from "ponder:registry";
import { kusdSupply, kusdSupplyEvent, kusdTxBurn, registryTransfer, registryViolation } from "ponder:schema";
import { candidateId, classifyTransfer, explains, type TransferClass } from "@kusd/core";
import { type Address, type Hex, zeroAddress } from "viem";
import { type ChangeAt, recordBalanceChange } from "./balance-changes.js";
import { createCandidateTxs } from "./candidate-txs.js";
import { logKey, logPlace } from "./event-row.js";
import { isListed, lower, psmKeyOf, registryIndex, TOKEN_SYMBOLS } from "./lookup.js";
import { isDirectSwapCall, recordPsmUsdc } from "./reserve-movements.js";

type TransferLike = {
  token: Address;
  from: Address;
  to: Address;
  amount: bigint;
  logId: string;
  logIndex: number;
  txHash: Hex;
  blockNumber: bigint;
  timestamp: bigint;
};

/** A registry account's WETH balance moved without a Transfer (a wrap or unwrap); account_balance sums these. */
function addWethBalance(
  context: Context,
  token: Address,
  account: Address,
  delta: bigint,
  side: "from" | "to",
  at: ChangeAt,
) {
  const assetKey = TOKEN_SYMBOLS.get(token) ?? "unknown";
  return recordBalanceChange(context, { kind: "token", asset: token, assetKey, account, delta, side, at });
}

const candidateTxs = createCandidateTxs();

/** Where an event happened: its block and transaction. */
export type TxAt = { blockNumber: bigint; txHash: Hex };

/**
 * A violation candidate explained by a later event of its own transaction (spec 2.6 rule 2):
 * the candidate row goes, and the transfer keeps the class that explains it.
 */
export async function explainCandidate(context: Context, at: TxAt, id: string, as: TransferClass): Promise<boolean> {
  if (!candidateTxs.mayHold(context.chain.id, at.blockNumber, at.txHash)) return false;
  const candidate = await context.db.find(registryViolation, { id });
  if (!candidate) return false;
  await context.db.delete(registryViolation, { id });
  await context.db.update(registryTransfer, { id: candidate.transferId }).set({ classification: as });
  return true;
}

/**
 * Stores a transfer that touches a registry account, and classifies it. Its listed sides' balances
 * move with the row: account_balance sums it (tokenBalanceMoves in ponder.schema.ts).
 */
export async function recordRegistryTransfer(context: Context, t: TransferLike) {
  const fromListed = isListed(t.from);
  const toListed = isListed(t.to);
  if (!fromListed && !toListed) return;
  const { class: classification, version } = classifyTransfer(registryIndex, {
    from: t.from,
    to: t.to,
    at: Number(t.timestamp),
  });
  const tokenSymbol = TOKEN_SYMBOLS.get(t.token) ?? "unknown";
  await context.db.insert(registryTransfer).values({
    id: t.logId,
    token: t.token,
    tokenSymbol,
    from: t.from,
    to: t.to,
    amount: t.amount,
    fromListed,
    toListed,
    classification,
    registryVersion: version,
    txHash: t.txHash,
    blockNumber: t.blockNumber,
    timestamp: t.timestamp,
    logIndex: t.logIndex,
  });
  if (classification === "violation") {
    await context.db
      .insert(registryViolation)
      .values({
        id: candidateId(t),
        transferId: t.logId,
        token: t.token,
        tokenSymbol,
        from: t.from,
        to: t.to,
        amount: t.amount,
        registryVersion: version!,
        txHash: t.txHash,
        blockNumber: t.blockNumber,
        timestamp: t.timestamp,
        logIndex: t.logIndex,
      })
      .onConflictDoNothing();
    candidateTxs.recorded(context.chain.id, t.blockNumber, t.txHash);
  } else if (classification === "inbound" && toListed) {
    // The return leg of a flash loan taken from the listed account earlier in this transaction.
    await explainCandidate(context, t, explains.returnLeg(t), "flash_loan");
  }
}

const transferOf = (event: {
  log: { address: Address; logIndex: number };
  args: { from: Address; to: Address; value: bigint };
  transaction: { hash: Hex };
  block: { number: bigint; timestamp: bigint };
}): TransferLike => ({
  token: lower(event.log.address),
  from: lower(event.args.from),
  to: lower(event.args.to),
  amount: event.args.value,
  logId: logKey(event),
  ...logPlace(event),
});

type TxCall = { to: Address | null; input: Hex };

/**
 * The key of kusd_tx_burn: kUSD burned by the PSM `psmKey` within a transaction, named by its block
 * and index in the block (a transaction hash is 66 characters, held in the cache with each row).
 */
export const txBurnId = (tx: { blockNumber: bigint; transactionIndex: number }, psmKey: string) =>
  `${tx.blockNumber}:${tx.transactionIndex}:${psmKey}`;

async function onUsdcTransfer(context: Context, t: TransferLike, tx: TxCall) {
  await recordRegistryTransfer(context, t);
  const base = { amount: t.amount, txHash: t.txHash, blockNumber: t.blockNumber, timestamp: t.timestamp };
  if (psmKeyOf(t.to) && !isDirectSwapCall(tx, t.to))
    await recordPsmUsdc(context, { ...base, psm: t.to, direction: "in", counterparty: t.from });
  if (psmKeyOf(t.from) && !isDirectSwapCall(tx, t.from))
    await recordPsmUsdc(context, { ...base, psm: t.from, direction: "out", counterparty: t.to });
}

// See ponder.config.ts: "Out" sees transfers from a listed account, "In" the rest.
ponder.on("USDCOut:Transfer", ({ event, context }) => onUsdcTransfer(context, transferOf(event), event.transaction));
ponder.on("USDCIn:Transfer", async ({ event, context }) => {
  if (!isListed(event.args.from)) await onUsdcTransfer(context, transferOf(event), event.transaction);
});

type WethTransferEvent = Omit<Parameters<typeof transferOf>[0], "args"> & {
  args: { src: Address; dst: Address; wad: bigint };
};

/** WETH9 names its Transfer arguments src, dst, wad. */
const wethTransfer = (event: WethTransferEvent) =>
  transferOf({ ...event, args: { from: event.args.src, to: event.args.dst, value: event.args.wad } });

ponder.on("WETHOut:Transfer", ({ event, context }) => recordRegistryTransfer(context, wethTransfer(event)));
ponder.on("WETHIn:Transfer", async ({ event, context }) => {
  if (!isListed(event.args.src)) await recordRegistryTransfer(context, wethTransfer(event));
});

const changeAt = (event: { block: { number: bigint }; log: { logIndex: number } }): ChangeAt => ({
  blockNumber: event.block.number,
  logIndex: event.log.logIndex,
});

// WETH9 wraps and unwraps without a Transfer event; the balance moves all the same.
ponder.on("WETHOut:Deposit", async ({ event, context }) => {
  if (isListed(event.args.dst))
    await addWethBalance(
      context,
      lower(event.log.address),
      lower(event.args.dst),
      event.args.wad,
      "to",
      changeAt(event),
    );
});
ponder.on("WETHOut:Withdrawal", async ({ event, context }) => {
  if (isListed(event.args.src))
    await addWethBalance(
      context,
      lower(event.log.address),
      lower(event.args.src),
      -event.args.wad,
      "from",
      changeAt(event),
    );
});

ponder.on("KUSD:Transfer", async ({ event, context }) => {
  const t = transferOf(event);
  await recordRegistryTransfer(context, t);
  const kind = t.from === zeroAddress ? "mint" : t.to === zeroAddress ? "burn" : null;
  if (!kind) return;
  const minted = kind === "mint" ? t.amount : 0n;
  const burned = kind === "burn" ? t.amount : 0n;
  const supply = await context.db
    .insert(kusdSupply)
    .values({
      id: "kUSD",
      totalSupply: minted - burned,
      totalMinted: minted,
      totalBurned: burned,
      updatedBlock: t.blockNumber,
    })
    .onConflictDoUpdate((row) => ({
      totalSupply: row.totalSupply + minted - burned,
      totalMinted: row.totalMinted + minted,
      totalBurned: row.totalBurned + burned,
      updatedBlock: t.blockNumber,
    }));
  // Only a PSM's burns are read (a redemption's Swap), so only theirs are kept.
  const burner = kind === "burn" ? psmKeyOf(t.from) : undefined;
  if (burner) {
    const id = txBurnId({ blockNumber: t.blockNumber, transactionIndex: event.transaction.transactionIndex }, burner);
    await context.db
      .insert(kusdTxBurn)
      .values({ id, amount: t.amount })
      .onConflictDoUpdate((row) => ({ amount: row.amount + t.amount }));
  }
  await context.db.insert(kusdSupplyEvent).values({
    id: t.logId,
    kind,
    account: kind === "mint" ? t.to : t.from,
    amount: t.amount,
    totalSupplyAfter: supply.totalSupply,
    txHash: t.txHash,
    blockNumber: t.blockNumber,
    timestamp: t.timestamp,
  });
});
