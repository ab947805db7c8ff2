/**
 * A scratch database for the entity-query tests: Ponder's tables (from ponder.schema.ts) in an
 * in-memory PGlite, filled with a small, known set of rows, a checkpoint at HEAD, and a fake
 * chain client that knows the hashes of blocks 0..HEAD (and one abandoned block). Each test file
 * fills the worker's scratch PGlite afresh and empties it when done (test/helpers/scratch-pglite.ts).
 */
import { drizzle } from "drizzle-orm/pglite";
import { BlockNotFoundError, type Hex, keccak256, toHex } from "viem";
import * as schema from "../../../ponder.schema.js";
import { scratchPglite } from "../../../test/helpers/scratch-pglite.js";
import { checkpointSql, createTablesSql, createViewsSql } from "../../../test/helpers/scratch-tables.js";
import type { ReportContext } from "../../context.js";
import type { ReadDb } from "../../io/indexed-reads.js";
import { createReportCaches } from "../../report-caches.js";

export const HEAD = 40n;
export const T0 = 1_780_000_000;
export const hashOf = (n: bigint): Hex => keccak256(toHex(`block ${n}`));
/** A block of an abandoned branch: the chain still answers it by hash, but block 20 is another. */
export const ORPHAN = keccak256(toHex("orphan 20"));

export const USERS = [
  "0x1111111111111111111111111111111111111111",
  "0x2222222222222222222222222222222222222222",
  "0x3333333333333333333333333333333333333333",
  "0xaBcDeF0000000000000000000000000000000004",
] as const;

const address = (n: number) => `0x${n.toString(16).padStart(40, "0")}` as Hex;

/** 60 swaps, two per block from block 1: amounts repeat (ties broken by the key), one past int8's range. */
export function swapRows(): (typeof schema.psmSwap.$inferInsert)[] {
  return Array.from({ length: 60 }, (_, i) => {
    const block = BigInt(1 + Math.floor(i / 2));
    const redeem = i % 3 === 0;
    const kusd = i === 59 ? 10n ** 24n : BigInt(1 + (i % 7)) * 10n ** 21n;
    return {
      id: `${hashOf(block)}-${i % 2}`,
      psmKey: i % 4 === 0 ? "psmRedeemReserve" : "psmMint",
      psm: address(i % 4 === 0 ? 0xaa : 0xbb),
      direction: redeem ? "redeem" : "mint",
      user: USERS[i % USERS.length]!.toLowerCase() as Hex,
      usdcAmount: kusd / 10n ** 12n,
      kusdAmount: kusd,
      fee: BigInt(i % 5),
      feeBps: i % 5,
      kusdBurned: redeem ? kusd : 0n,
      txHash: keccak256(toHex(`tx ${i}`)),
      blockNumber: block,
      timestamp: BigInt(T0 + Number(block) * 12),
      logIndex: i % 2,
    };
  });
}

/** Vault events with null senders and assets, for ordering by a nullable column. */
export function vaultEventRows(): (typeof schema.vaultEvent.$inferInsert)[] {
  return Array.from({ length: 9 }, (_, i) => ({
    id: `ve-${i}`,
    vaultKey: i % 2 ? "skUSD" : "vaultV1",
    vault: address(0xcc),
    kind: i % 3 ? "deposit" : "yield",
    sender: i % 3 ? (USERS[i % 3]!.toLowerCase() as Hex) : null,
    from: null,
    to: USERS[0].toLowerCase() as Hex,
    assets: i % 4 === 1 ? null : BigInt(100 * (i % 3)),
    shares: BigInt(i),
    txHash: keccak256(toHex(`vtx ${i}`)),
    blockNumber: BigInt(2 + i),
    timestamp: BigInt(T0 + (2 + i) * 12),
    logIndex: 5,
  }));
}

/**
 * skUSD share moves: at block 10 USERS[0] holds 5e30 and USERS[1] 2e30; at the head USERS[i]
 * holds (i + 1)e30 (USERS[0] sends 4e30 away at block 12; USERS[2] and USERS[3] arrive at 15 and 20).
 */
export function balanceChangeRows(): (typeof schema.balanceChange.$inferInsert)[] {
  const change = (account: string, block: bigint, delta: bigint) => ({
    id: `s${block}:0${delta < 0n ? "f" : "t"}`,
    kind: "share",
    asset: address(0xcc),
    assetKey: "skUSD",
    account: account.toLowerCase() as Hex,
    delta,
    blockNumber: block,
    logIndex: 0,
  });
  return [
    change(USERS[0], 3n, 5n * 10n ** 30n),
    change(USERS[1], 5n, 2n * 10n ** 30n),
    change(USERS[0], 12n, -4n * 10n ** 30n),
    change(USERS[2], 15n, 3n * 10n ** 30n),
    change(USERS[3], 20n, 4n * 10n ** 30n),
  ];
}

export type EntityDb = { db: ReadDb; ctx: ReportContext; close(): Promise<void> };

export async function openEntityDb(): Promise<EntityDb> {
  const { client, release } = await scratchPglite();
  for (const statement of [
    ...createTablesSql([
      schema.psmSwap,
      schema.psmReserveMovement,
      schema.vaultEvent,
      schema.sharePrice,
      schema.roleEvent,
      schema.roleHolder,
      schema.registryTransfer,
      schema.registryViolation,
      schema.balanceChange,
    ]),
    ...createViewsSql([schema.shareBalance, schema.accountBalance]),
    ...checkpointSql("base", 8453, HEAD, T0 + Number(HEAD) * 12),
  ])
    await client.exec(statement);
  const db = drizzle(client, { schema });
  await db.insert(schema.psmSwap).values(swapRows());
  await db.insert(schema.vaultEvent).values(vaultEventRows());
  await db.insert(schema.balanceChange).values(balanceChangeRows());
  const ctx = {
    db: db as unknown as ReadDb,
    headFreshMs: 0,
    caches: createReportCaches({ headFreshMs: 0, venueMaxAgeSeconds: 0 }),
    base: fakeChain(),
    network: { kUSD: { startBlock: 0 } },
  } as unknown as ReportContext;
  return { db: db as unknown as ReadDb, ctx, close: release };
}

/** What the block resolution and `_meta` read from the chain: blocks 0..HEAD + 5 by hash and by number. */
function fakeChain() {
  const byNumber = (n: bigint) => ({ number: n, hash: hashOf(n), timestamp: BigInt(T0) + n * 12n });
  return {
    getBlockNumber: async () => HEAD + 5n,
    getBlock: async (q: { blockHash?: Hex; blockNumber?: bigint }) => {
      if (q.blockNumber !== undefined) return byNumber(q.blockNumber);
      if (q.blockHash === ORPHAN) return { number: 20n, hash: ORPHAN, timestamp: BigInt(T0) };
      for (let n = 0n; n <= HEAD + 5n; n++) if (hashOf(n) === q.blockHash) return byNumber(n);
      throw new BlockNotFoundError({ blockHash: q.blockHash });
    },
  };
}
