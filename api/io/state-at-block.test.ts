import { asc } from "drizzle-orm";
import { drizzle } from "drizzle-orm/pglite";
import type { Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as schema from "../../ponder.schema.js";
import { type ScratchPglite, scratchPglite } from "../../test/helpers/scratch-pglite.js";
import { createTablesSql, createViewsSql } from "../../test/helpers/scratch-tables.js";
import { accountBalancesAt, shareBalancesAt } from "./state-at-block.js";

const LISTED = "0x00000000000000000000000000000000000000a1" as Hex;
const OUTSIDER = "0x00000000000000000000000000000000000000b2" as Hex;
const USDC = "0x00000000000000000000000000000000000000c3" as Hex;
const WETH = "0x00000000000000000000000000000000000000d4" as Hex;
const VAULT = "0x00000000000000000000000000000000000000e5" as Hex;

const transfer = (block: bigint, from: Hex, to: Hex, amount: bigint) => ({
  id: `t${block}`,
  token: USDC,
  tokenSymbol: "USDC",
  from,
  to,
  amount,
  fromListed: from === LISTED,
  toListed: to === LISTED,
  classification: from === LISTED ? "internal" : "inbound",
  registryVersion: 1,
  txHash: `0x${"ab".repeat(32)}` as Hex,
  blockNumber: block,
  timestamp: 1_000n + block,
  logIndex: 0,
});

let scratch: ScratchPglite;
let db: ReturnType<typeof drizzle<typeof schema>>;

beforeAll(async () => {
  scratch = await scratchPglite();
  const client = scratch.client;
  for (const statement of [
    ...createTablesSql([schema.registryTransfer, schema.balanceChange]),
    ...createViewsSql([schema.accountBalance, schema.shareBalance]),
  ])
    await client.exec(statement);
  db = drizzle(client, { schema });
  await db.insert(schema.registryTransfer).values([
    transfer(1n, OUTSIDER, LISTED, 130n), // in: +130
    transfer(2n, LISTED, OUTSIDER, 100n), // out: -100
    transfer(3n, LISTED, LISTED, 5n), // to itself: -5 and +5
  ]);
  // A WETH wrap emits no Transfer: its move is a balance_change row of kind token.
  await db.insert(schema.balanceChange).values({
    id: "t2:1t",
    kind: "token",
    asset: WETH,
    assetKey: "WETH",
    account: LISTED,
    delta: 7n,
    blockNumber: 2n,
    logIndex: 1,
  });
  const share = (block: bigint, delta: bigint, side: "f" | "t") => ({
    id: `s${block}:0${side}`,
    kind: "share",
    asset: VAULT,
    assetKey: "skUSD",
    account: OUTSIDER,
    delta,
    blockNumber: block,
    logIndex: 0,
  });
  await db.insert(schema.balanceChange).values([share(1n, 50n, "t"), share(3n, -20n, "f")]);
});
afterAll(() => scratch.release());

describe("registry accounts' token balances (tokenBalanceMoves)", () => {
  it("account_balance sums the listed sides of registry transfers and WETH's wraps", async () => {
    const rows = await db.select().from(schema.accountBalance).orderBy(asc(schema.accountBalance.token));
    expect(rows).toEqual([
      { id: `${USDC}:${LISTED}`, token: USDC, tokenSymbol: "USDC", account: LISTED, balance: 30n, updatedBlock: 3n },
      { id: `${WETH}:${LISTED}`, token: WETH, tokenSymbol: "WETH", account: LISTED, balance: 7n, updatedBlock: 2n },
    ]);
  });

  it("at a past block, only the moves up to it", async () => {
    const at = accountBalancesAt(1n);
    const rows = await db.select().from(at);
    expect(rows).toEqual([
      { id: `${USDC}:${LISTED}`, token: USDC, tokenSymbol: "USDC", account: LISTED, balance: 130n, updatedBlock: 1n },
    ]);
  });
});

describe("vault share balances (shareBalances)", () => {
  const holder = (shares: bigint) => ({
    id: `${VAULT}:${OUTSIDER}`,
    vault: VAULT,
    vaultKey: "skUSD",
    account: OUTSIDER,
    shares,
  });

  it("share_balance sums a holder's share moves, and no token move", async () => {
    expect(await db.select().from(schema.shareBalance)).toEqual([holder(30n)]);
  });

  it("at a past block, only the moves up to it", async () => {
    expect(await db.select().from(shareBalancesAt(2n))).toEqual([holder(50n)]);
  });
});
