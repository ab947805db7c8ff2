/**
 * Indexed state. Amounts are raw token units (bigint; decimals in the column comment):
 * USDC 6, kUSD 18, WETH 18, skUSD shares 24, vault v1/v2 shares 21. Every table is a Ponder
 * table, so a reorg rolls back rows and the balances derived from them together.
 */
import { and, eq, lte, max, type SQL, sql, sum } from "drizzle-orm";
import type { QueryBuilder } from "drizzle-orm/pg-core";
import { index, onchainEnum, onchainTable, onchainView } from "ponder";

export const swapDirection = onchainEnum("swap_direction", ["mint", "redeem"]);

/** One row per PSM `Swap`. */
export const psmSwap = onchainTable(
  "psm_swap",
  (t) => ({
    id: t.text().primaryKey(), // block:logIndex, zero-padded (logKey in src/indexing/event-row.ts)
    // What each column holds: PSM_SWAP_COLUMNS in packages/core/src/indexed/columns.ts (GraphQL's descriptions).
    psmKey: t.text().notNull(),
    psm: t.hex().notNull(),
    direction: swapDirection("direction").notNull(),
    user: t.hex().notNull(),
    usdcAmount: t.bigint().notNull(),
    kusdAmount: t.bigint().notNull(),
    fee: t.bigint().notNull(),
    feeBps: t.integer().notNull(),
    kusdBurned: t.bigint().notNull(),
    txHash: t.hex().notNull(),
    blockNumber: t.bigint().notNull(),
    timestamp: t.bigint().notNull(),
    logIndex: t.integer().notNull(),
  }),
  (table) => ({
    userIdx: index().on(table.user),
    psmIdx: index().on(table.psmKey, table.blockNumber),
    blockIdx: index().on(table.blockNumber),
  }),
);

/**
 * USDC entering or leaving a PSM other than through a swap: topUp (in), skim (out, with
 * SurplusSkimmed), flashLoan (out and back in one transaction, net zero) or unexplained.
 * One row per (transaction, PSM, direction).
 */
export const psmReserveMovement = onchainTable(
  "psm_reserve_movement",
  (t) => ({
    id: t.text().primaryKey(), // txHash:psm:in|out
    psmKey: t.text().notNull(),
    psm: t.hex().notNull(),
    kind: t.text().notNull(), // topUp | skim | flashLoan | unexplained
    direction: t.text().notNull(), // in | out
    counterparty: t.hex().notNull(),
    amount: t.bigint().notNull(), // USDC, 6 decimals
    txHash: t.hex().notNull(),
    blockNumber: t.bigint().notNull(),
    timestamp: t.bigint().notNull(),
  }),
  (table) => ({ psmIdx: index().on(table.psmKey, table.blockNumber) }),
);

/** Paused / Unpaused of a PSM. */
export const psmPauseEvent = onchainTable("psm_pause_event", (t) => ({
  id: t.text().primaryKey(),
  psmKey: t.text().notNull(),
  psm: t.hex().notNull(),
  paused: t.boolean().notNull(),
  account: t.hex().notNull(),
  txHash: t.hex().notNull(),
  blockNumber: t.bigint().notNull(),
  timestamp: t.bigint().notNull(),
}));

/** Deposit, withdraw, share transfer and yield distribution, for every vault. */
export const vaultEvent = onchainTable(
  "vault_event",
  (t) => ({
    id: t.text().primaryKey(),
    vaultKey: t.text().notNull(), // skUSD | skUSDDeprecated | vaultV1 | vaultV2
    vault: t.hex().notNull(),
    kind: t.text().notNull(), // deposit | withdraw | transfer | yield | withdrawal_request | withdrawal_claim | sweep | l1_deposit
    sender: t.hex(), // deposit/withdraw caller, yield strategist
    from: t.hex(), // share transfer / withdraw owner
    to: t.hex(), // share transfer / deposit owner / withdraw receiver
    assets: t.bigint(), // asset units
    shares: t.bigint(), // share units
    txHash: t.hex().notNull(),
    blockNumber: t.bigint().notNull(),
    timestamp: t.bigint().notNull(),
    logIndex: t.integer().notNull(),
  }),
  (table) => ({ vaultIdx: index().on(table.vaultKey, table.kind, table.blockNumber) }),
);

/** convertToAssets(one share) of each staking vault, every `sharePriceInterval` blocks. */
export const sharePrice = onchainTable(
  "share_price",
  (t) => ({
    id: t.text().primaryKey(), // vault:block
    vaultKey: t.text().notNull(),
    vault: t.hex().notNull(),
    assetsPerShare: t.bigint().notNull(), // kUSD (18 decimals) per 1e24 share units
    totalAssets: t.bigint().notNull(),
    totalSupply: t.bigint().notNull(),
    blockNumber: t.bigint().notNull(),
    timestamp: t.bigint().notNull(),
  }),
  (table) => ({ vaultIdx: index().on(table.vaultKey, table.blockNumber) }),
);

/** Strategist writes on vault v1/v2: l1Assets, offChainAssets, hedgingReserve. */
export const vaultReport = onchainTable(
  "vault_report",
  (t) => ({
    id: t.text().primaryKey(),
    vaultKey: t.text().notNull(),
    vault: t.hex().notNull(),
    field: t.text().notNull(), // l1Assets | offChainAssets | hedgingReserve
    oldAmount: t.bigint().notNull(), // wei
    newAmount: t.bigint().notNull(), // wei
    txHash: t.hex().notNull(),
    blockNumber: t.bigint().notNull(),
    timestamp: t.bigint().notNull(),
  }),
  (table) => ({ fieldIdx: index().on(table.vaultKey, table.field, table.blockNumber) }),
);

/** RoleGranted / RoleRevoked on kUSD, the PSMs and the vaults. */
export const roleEvent = onchainTable(
  "role_event",
  (t) => ({
    id: t.text().primaryKey(),
    contractKey: t.text().notNull(),
    contract: t.hex().notNull(),
    role: t.hex().notNull(),
    roleName: t.text(), // MINTER_ROLE, DEFAULT_ADMIN_ROLE, ... when known
    account: t.hex().notNull(),
    sender: t.hex().notNull(),
    granted: t.boolean().notNull(),
    txHash: t.hex().notNull(),
    blockNumber: t.bigint().notNull(),
    timestamp: t.bigint().notNull(),
  }),
  (table) => ({ roleIdx: index().on(table.role, table.account) }),
);

/** Who holds which role now, as the role events imply. */
export const roleHolder = onchainTable(
  "role_holder",
  (t) => ({
    id: t.text().primaryKey(), // contract:role:account
    contractKey: t.text().notNull(),
    contract: t.hex().notNull(),
    role: t.hex().notNull(),
    roleName: t.text(),
    account: t.hex().notNull(),
    active: t.boolean().notNull(),
    sinceBlock: t.bigint().notNull(),
  }),
  (table) => ({ roleIdx: index().on(table.role, table.active) }),
);

/** ERC-20 transfers (USDC, kUSD, WETH, skUSD shares) with a registry account on either side. */
export const registryTransfer = onchainTable(
  "registry_transfer",
  (t) => ({
    id: t.text().primaryKey(),
    token: t.hex().notNull(),
    tokenSymbol: t.text().notNull(),
    from: t.hex().notNull(),
    to: t.hex().notNull(),
    amount: t.bigint().notNull(),
    fromListed: t.boolean().notNull(),
    toListed: t.boolean().notNull(),
    /**
     * Spec 2.6 rule 2 for transfers out of an account listed in the registry version in force:
     * internal | burn | redemption_payout | vault_withdrawal | flash_loan |
     * disclosed_venue_deposit | violation; `inbound` when the sender is not listed then.
     */
    classification: t.text().notNull(),
    registryVersion: t.integer(), // version in force at the block time, null before the first
    txHash: t.hex().notNull(),
    blockNumber: t.bigint().notNull(),
    timestamp: t.bigint().notNull(),
    logIndex: t.integer().notNull(),
  }),
  (table) => ({
    fromIdx: index().on(table.from),
    toIdx: index().on(table.to),
    blockIdx: index().on(table.blockNumber),
  }),
);

/**
 * Transfers out of a listed account that fit no allowed pattern (spec 2.6 rule 2). A transfer
 * is a candidate when it is seen; a later event of the same transaction (the PSM Swap of a
 * redemption, an ERC-4626 Withdraw, a flash loan's return leg) removes it again.
 */
export const registryViolation = onchainTable(
  "registry_violation",
  (t) => ({
    id: t.text().primaryKey(), // txHash:token:from:to:amount
    transferId: t.text().notNull(),
    token: t.hex().notNull(),
    tokenSymbol: t.text().notNull(),
    from: t.hex().notNull(),
    to: t.hex().notNull(),
    amount: t.bigint().notNull(),
    registryVersion: t.integer().notNull(),
    txHash: t.hex().notNull(),
    blockNumber: t.bigint().notNull(),
    timestamp: t.bigint().notNull(),
    logIndex: t.integer().notNull(),
  }),
  (table) => ({ blockIdx: index().on(table.blockNumber, table.logIndex) }),
);

/** kUSD mints and burns: the supply history. */
export const kusdSupplyEvent = onchainTable(
  "kusd_supply_event",
  (t) => ({
    id: t.text().primaryKey(),
    kind: t.text().notNull(), // mint | burn
    account: t.hex().notNull(),
    amount: t.bigint().notNull(),
    totalSupplyAfter: t.bigint().notNull(),
    txHash: t.hex().notNull(),
    blockNumber: t.bigint().notNull(),
    timestamp: t.bigint().notNull(),
  }),
  (table) => ({ blockIdx: index().on(table.blockNumber) }),
);

/**
 * kUSD burned per transaction and PSM (id `block:transactionIndex:psmKey`): what a redemption Swap of the
 * same transaction reads by key (the live PSM burns what it redeems before it emits Swap). A
 * keyed row stays in Ponder's indexing cache; a SQL query over kusd_supply_event would flush
 * the cache to the database on every redemption.
 */
export const kusdTxBurn = onchainTable("kusd_tx_burn", (t) => ({
  id: t.text().primaryKey(),
  amount: t.bigint().notNull(),
}));

/** Running kUSD totals (one row, id "kUSD"). */
export const kusdSupply = onchainTable("kusd_supply", (t) => ({
  id: t.text().primaryKey(),
  totalSupply: t.bigint().notNull(),
  totalMinted: t.bigint().notNull(),
  totalBurned: t.bigint().notNull(),
  updatedBlock: t.bigint().notNull(),
}));

/** Exchange-rate reports of the liquid-staking tokens (ETH per token, 18 decimals). */
export const lstRate = onchainTable(
  "lst_rate",
  (t) => ({
    id: t.text().primaryKey(),
    token: t.hex().notNull(),
    symbol: t.text().notNull(),
    rate: t.bigint().notNull(),
    blockNumber: t.bigint().notNull(),
    timestamp: t.bigint().notNull(),
  }),
  (table) => ({ symbolIdx: index().on(table.symbol, table.timestamp) }),
);

/** Deposits, withdrawals, borrows and repays in the isolated lending market. */
export const lendingEvent = onchainTable(
  "lending_event",
  (t) => ({
    id: t.text().primaryKey(),
    vaultKey: t.text().notNull(),
    vault: t.hex().notNull(),
    kind: t.text().notNull(), // deposit | withdraw | borrow | repay
    account: t.hex().notNull(),
    assets: t.bigint().notNull(),
    shares: t.bigint(),
    txHash: t.hex().notNull(),
    blockNumber: t.bigint().notNull(),
    timestamp: t.bigint().notNull(),
  }),
  (table) => ({ accountIdx: index().on(table.account) }),
);

/**
 * Moves of a balance the API answers "as of a block" for that no other table holds: vault shares
 * of any holder (`kind` share, `asset` the vault) and WETH wraps and unwraps of registry accounts
 * (`kind` token: WETH9 emits no Transfer for them). A registry account's other token moves are
 * its `registry_transfer` rows (see tokenBalanceMoves). A balance at block N is the sum of its
 * deltas up to N; the current balances are the views below. Only appended: a handler writes one
 * row per side of a log and reads nothing (keeping the current balance in a table beside it cost
 * ~110,000 updates a backfill at devnet scale, and a row per registry transfer side beside the
 * transfer another 64,000 inserts: issue 41).
 */
export const balanceChange = onchainTable(
  "balance_change",
  (t) => ({
    id: t.text().primaryKey(), // s|t (kind) block:logIndex f|t (side): one row per side of a log
    kind: t.text().notNull(), // share | token
    asset: t.hex().notNull(),
    assetKey: t.text().notNull(), // vault key (skUSD, vaultV1, ...) or token symbol
    account: t.hex().notNull(),
    delta: t.bigint().notNull(), // asset units: shares (skUSD 24 decimals, vaults v1/v2 21) or token units
    blockNumber: t.bigint().notNull(),
    logIndex: t.integer().notNull(),
  }),
  (table) => ({
    asOfIdx: index().on(table.kind, table.asset, table.account, table.blockNumber),
    accountIdx: index().on(table.account, table.kind),
  }),
);

const bc = balanceChange;

/**
 * Every holder's share balance in every vault: the sum of its share moves, up to block `upTo` when
 * given. The share_balance view, and its past-block form (state-at-block.ts).
 */
export function shareBalances(qb: QueryBuilder, upTo?: bigint) {
  return qb
    .select({
      id: sql<string>`${bc.asset} || ':' || ${bc.account}`.as("id"), // vault:account
      vault: sql<`0x${string}`>`${bc.asset}`.as("vault"),
      vaultKey: sql<string>`${bc.assetKey}`.as("vault_key"),
      account: sql<`0x${string}`>`${bc.account}`.as("account"),
      shares: sql<bigint>`${sum(bc.delta)}`.mapWith(BigInt).as("shares"),
    })
    .from(bc)
    .where(and(eq(bc.kind, "share"), upTo === undefined ? undefined : lte(bc.blockNumber, upTo)))
    .groupBy(bc.asset, bc.assetKey, bc.account);
}

/** Current share balance of every holder in every vault, from its moves since indexing began. */
export const shareBalance = onchainView("share_balance").as((qb) => shareBalances(qb));

const rt = registryTransfer;

/**
 * Every move of a registry account's token balance, one row per listed side, up to block `upTo`
 * when given: a registry transfer takes `amount` from its sender when listed and gives it to its
 * receiver when listed (both, net nothing, for a listed account paying itself), and WETH wraps and
 * unwraps are `balance_change` rows of kind token. account_balance sums these, now and at a block.
 */
function tokenBalanceMoves(qb: QueryBuilder, upTo?: bigint) {
  const upToBlock = (block: typeof rt.blockNumber | typeof bc.blockNumber) =>
    upTo === undefined ? undefined : lte(block, upTo);
  const move = (asset: SQL, assetKey: SQL, account: SQL, delta: SQL, block: SQL) => ({
    asset: sql<`0x${string}`>`${asset}`.as("asset"),
    assetKey: sql<string>`${assetKey}`.as("asset_key"),
    account: sql<`0x${string}`>`${account}`.as("account"),
    delta: sql<bigint>`${delta}`.as("delta"),
    blockNumber: sql<bigint>`${block}`.as("block_number"),
  });
  const transferSide = (
    account: typeof rt.from | typeof rt.to,
    delta: SQL,
    listed: typeof rt.fromListed | typeof rt.toListed,
  ) =>
    qb
      .select(move(sql`${rt.token}`, sql`${rt.tokenSymbol}`, sql`${account}`, delta, sql`${rt.blockNumber}`))
      .from(rt)
      .where(and(eq(listed, true), upToBlock(rt.blockNumber)));
  return transferSide(rt.from, sql`-${rt.amount}`, rt.fromListed)
    .unionAll(transferSide(rt.to, sql`${rt.amount}`, rt.toListed))
    .unionAll(
      qb
        .select(
          move(sql`${bc.asset}`, sql`${bc.assetKey}`, sql`${bc.account}`, sql`${bc.delta}`, sql`${bc.blockNumber}`),
        )
        .from(bc)
        .where(and(eq(bc.kind, "token"), upToBlock(bc.blockNumber))),
    )
    .as("token_move");
}

/**
 * Every registry account's balance in every token: the sum of its moves (tokenBalanceMoves), up to
 * block `upTo` when given. The account_balance view, and its past-block form (state-at-block.ts).
 */
export function tokenBalances(qb: QueryBuilder, upTo?: bigint) {
  const m = tokenBalanceMoves(qb, upTo);
  return qb
    .select({
      id: sql<string>`${m.asset} || ':' || ${m.account}`.as("id"), // token:account
      token: sql<`0x${string}`>`${m.asset}`.as("token"),
      tokenSymbol: sql<string>`${m.assetKey}`.as("token_symbol"),
      account: sql<`0x${string}`>`${m.account}`.as("account"),
      balance: sql<bigint>`${sum(m.delta)}`.mapWith(BigInt).as("balance"),
      updatedBlock: sql<bigint>`${max(m.blockNumber)}`.mapWith(BigInt).as("updated_block"),
    })
    .from(m)
    .groupBy(m.asset, m.assetKey, m.account);
}

/** Current balance of every registry account in every token, from its moves since indexing began. */
export const accountBalance = onchainView("account_balance").as((qb) => tokenBalances(qb));

/**
 * PSM parameter changes the contract announces by event: StableAdded (fee, cap), TieredFeeAdded
 * (one per tier of a setTieredFees call, which replaces the whole table), MaxOracleDelayUpdated,
 * DepegCheckDisabledUpdated, SolvencyCheckDisabledUpdated, TreasuryUpdated. Setters that emit no
 * event (setStableCap, setFlashFee, setOracle, setMaxDepegBps, setMinSolvencyThreshold,
 * setMintingEnabled, setVault) cannot be recovered from logs.
 */
export const psmParameterEvent = onchainTable(
  "psm_parameter_event",
  (t) => ({
    id: t.text().primaryKey(),
    psmKey: t.text().notNull(),
    psm: t.hex().notNull(),
    name: t.text().notNull(), // the event name
    stable: t.hex(), // the stable it concerns, null for PSM-wide settings
    fee: t.bigint(), // bps (StableAdded, TieredFeeAdded)
    cap: t.bigint(), // stable units (StableAdded)
    threshold: t.bigint(), // stable units (TieredFeeAdded)
    seconds: t.bigint(), // MaxOracleDelayUpdated
    flag: t.boolean(), // the Disabled events
    address: t.hex(), // TreasuryUpdated
    txHash: t.hex().notNull(),
    blockNumber: t.bigint().notNull(),
    timestamp: t.bigint().notNull(),
    logIndex: t.integer().notNull(),
  }),
  (table) => ({ psmIdx: index().on(table.psm, table.blockNumber) }),
);
