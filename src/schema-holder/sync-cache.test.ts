import type { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { scratchPglite } from "../../test/helpers/scratch-pglite.js";
import type { Query } from "./claim-schema.js";
import { describeVerdict, staleReason, verifySyncCache } from "./sync-cache.js";

const hash = (n: number, fork = 0) => `0x${(fork * 1_000_000 + n).toString(16).padStart(64, "0")}`;

describe("staleReason", () => {
  const ends = { lowest: { number: 2n, hash: hash(2) }, highest: { number: 90n, hash: hash(90) } };
  it("keeps rows whose lowest and highest blocks are the chain's", () => {
    expect(staleReason(ends, { lowest: hash(2), highest: hash(90).toUpperCase().replace("0X", "0x") }, true)).toBe(
      null,
    );
    expect(staleReason(null, { lowest: null, highest: null }, false)).toBe(null);
  });
  it("names the block that differs or is missing", () => {
    expect(staleReason(ends, { lowest: hash(2), highest: hash(90, 1) }, true)).toMatch(
      /^block 90 is 0x\S+… on the chain/,
    );
    expect(staleReason(ends, { lowest: hash(2, 1), highest: hash(90) }, true)).toMatch(/^block 2 /);
    expect(staleReason(ends, { lowest: hash(2), highest: null }, true)).toBe(
      "block 90 is stored and the chain has no such block",
    );
    expect(staleReason(null, { lowest: null, highest: null }, true)).toMatch(/intervals .* without a block/);
  });
});

describe("verifySyncCache", () => {
  let db: PGlite;
  const query: Query = async (text, params) => (await db.query<Record<string, unknown>>(text, params)).rows;
  const count = async (table: string, chainId: number) =>
    Number(
      (
        await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ponder_sync.${table} WHERE chain_id = $1`, [
          chainId,
        ])
      ).rows[0]!.n,
    );
  // The worker's scratch PGlite (an open takes most of a second); each test starts from a fresh schema.
  let release: () => Promise<void>;
  beforeAll(async () => {
    ({ client: db, release } = await scratchPglite());
  });
  afterAll(() => release());
  beforeEach(async () => {
    await db.exec(`
      DROP SCHEMA IF EXISTS ponder_sync CASCADE;
      CREATE SCHEMA ponder_sync;
      CREATE TABLE ponder_sync.blocks (chain_id bigint, number bigint, hash varchar(66), PRIMARY KEY (chain_id, number));
      CREATE TABLE ponder_sync.logs (chain_id bigint, block_number bigint, log_index int);
      CREATE TABLE ponder_sync.intervals (fragment_id text PRIMARY KEY, chain_id bigint, blocks text);
      CREATE TABLE ponder_sync.factories (id int);`);
    for (const [chainId, n] of [
      [8453, 2],
      [8453, 40],
      [8453, 90],
      [1, 5],
    ] as const) {
      await db.query("INSERT INTO ponder_sync.blocks VALUES ($1, $2, $3)", [chainId, n, hash(n)]);
      await db.query("INSERT INTO ponder_sync.logs VALUES ($1, $2, 0)", [chainId, n]);
    }
    await db.query("INSERT INTO ponder_sync.intervals VALUES ('f8453', 8453, '[2,91)'), ('f1', 1, '[5,6)')");
  });

  it("reuses a chain's rows when both ends are on it, reading those two blocks only", async () => {
    const asked: bigint[] = [];
    const verdicts = await verifySyncCache(query, [
      {
        chainId: 8453,
        hashAt: async (n) => {
          asked.push(n);
          return hash(Number(n));
        },
      },
    ]);
    expect(verdicts).toEqual([{ chainId: 8453, kept: true, lowest: 2n, highest: 90n }]);
    expect(asked).toEqual([2n, 90n]);
    expect(await count("logs", 8453)).toBe(3);
    expect(describeVerdict(verdicts[0]!)).toBe("chain 8453: stored blocks 2–90 are the chain's own: reused");
  });

  it("clears every row of a chain whose blocks are another's, and no other chain's", async () => {
    // The devnet made again: the same heights, other hashes above block 40.
    const verdicts = await verifySyncCache(query, [
      { chainId: 8453, hashAt: async (n) => (n > 40n ? hash(Number(n), 7) : hash(Number(n))) },
    ]);
    expect(verdicts).toEqual([{ chainId: 8453, kept: false, reason: expect.stringMatching(/^block 90 /), removed: 7 }]);
    expect(describeVerdict(verdicts[0]!)).toMatch(
      /^chain 8453: block 90 is 0x\S+… on the chain, 0x\S+… stored: its 7 stored rows cleared, fetched again$/,
    );
    for (const table of ["blocks", "logs", "intervals"]) expect(await count(table, 8453)).toBe(0);
    expect([await count("blocks", 1), await count("logs", 1), await count("intervals", 1)]).toEqual([1, 1, 1]);
  });

  it("clears a chain shorter than what is stored (a devnet made again, not yet as long)", async () => {
    const [v] = await verifySyncCache(query, [
      { chainId: 8453, hashAt: async (n) => (n <= 40n ? hash(Number(n)) : null) },
    ]);
    expect(v).toMatchObject({ kept: false, reason: "block 90 is stored and the chain has no such block" });
  });

  it("says nothing is stored for a chain without rows, and leaves a database Ponder never synced into alone", async () => {
    const nothing = await verifySyncCache(query, [{ chainId: 10, hashAt: async () => null }]);
    expect(nothing).toEqual([{ chainId: 10, kept: false, reason: "nothing stored" }]);
    expect(describeVerdict(nothing[0]!)).toBe("chain 10: nothing stored yet");
    await db.exec("DROP SCHEMA ponder_sync CASCADE");
    expect(await verifySyncCache(query, [{ chainId: 8453, hashAt: async () => null }])).toEqual([]);
  });

  it("propagates a failed block read: the caller decides (the config logs it and starts)", async () => {
    await expect(
      verifySyncCache(query, [
        {
          chainId: 8453,
          hashAt: async () => {
            throw new Error("connection refused");
          },
        },
      ]),
    ).rejects.toThrow(/connection refused/);
    expect(await count("blocks", 8453)).toBe(3);
  });
});
