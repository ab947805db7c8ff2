/**
 * The operator store against embedded PGlite always, and against PostgreSQL as well when
 * DATABASE_URL is set. Every test gets its own schema, so tests never see each other's rows;
 * PGlite shares one temporary directory (a fresh PGlite data directory costs seconds), and the
 * PostgreSQL schemas are dropped at the end.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import {
  type NewStatement,
  type OperatorStore,
  OperatorStoreError,
  type OperatorStoreOptions,
  openOperatorStore,
} from "../../api/store/operator-store.js";

type Backend = {
  name: "pglite" | "postgres";
  options: () => OperatorStoreOptions;
  cleanup: (schemas: string[]) => Promise<void>;
};

const runId = `${process.pid}_${Date.now().toString(36)}`;
const pgliteDir = mkdtempSync(join(tmpdir(), "kusd-operator-store-"));

const backends: Backend[] = [
  {
    name: "pglite",
    options: () => ({ directory: pgliteDir }),
    cleanup: async () => rmSync(pgliteDir, { recursive: true, force: true }),
  },
];
const databaseUrl = process.env.DATABASE_URL;
if (databaseUrl) {
  backends.push({
    name: "postgres",
    options: () => ({ databaseUrl }),
    cleanup: async (schemas) => {
      const sql = postgres(databaseUrl, { onnotice: () => {} });
      try {
        for (const schema of schemas) await sql.unsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      } finally {
        await sql.end({ timeout: 5 });
      }
    },
  });
}

const hash = (n: number) => `0x${n.toString(16).padStart(64, "0")}`;
const statement = (n: number, timestamp: number, extra: Partial<NewStatement> = {}): NewStatement => ({
  attestationHash: hash(n),
  signer: "0x5F4eC3Df9cbd43714FE2740f5E3616155c5b8419",
  timestamp,
  blockNumber: 30_000_000n + BigInt(n),
  chainId: 8453,
  status: "healthy",
  artifact: JSON.stringify({ n, timestamp }),
  ...extra,
});

describe.each(backends)("operator store on $name", (backend) => {
  const schemas: string[] = [];
  const open: OperatorStore[] = [];
  let counter = 0;

  /** A store on a schema no other test uses. */
  const fresh = async (schema = `kusd_operator_test_${runId}_${++counter}`) => {
    if (!schemas.includes(schema)) schemas.push(schema);
    const store = await openOperatorStore({ ...backend.options(), schema });
    open.push(store);
    return { store, schema };
  };

  afterEach(async () => {
    // PGlite must not have two instances on one directory, so each test closes what it opened.
    for (const store of open.splice(0)) await store.close();
  });
  afterAll(async () => {
    await backend.cleanup(schemas);
  });

  describe("statements", () => {
    it("inserts, and returns the latest by signed timestamp then id", async () => {
      const { store } = await fresh();
      expect(await store.statements.latest()).toBeNull();
      expect(await store.statements.insert(statement(1, 1_000))).toEqual({ inserted: true });
      expect(await store.statements.insert(statement(3, 3_000))).toEqual({ inserted: true });
      expect(await store.statements.insert(statement(2, 2_000))).toEqual({ inserted: true });
      expect((await store.statements.latest())?.attestationHash).toBe(hash(3));
      // Same second: the later insert (higher id) wins.
      await store.statements.insert(statement(4, 3_000));
      expect((await store.statements.latest())?.attestationHash).toBe(hash(4));
    });

    it("round-trips every field, with the artifact bytes unchanged", async () => {
      const { store } = await fresh();
      // Whitespace, key order, a number JSON.parse would reprint, and non-ASCII all survive.
      const artifact = '{ "z":1,\n  "a":4874515519514120.0, "note":"réserve ✓" }';
      const blockNumber = 2n ** 62n + 7n; // beyond Number.MAX_SAFE_INTEGER
      await store.statements.insert(
        statement(9, 1_700_000_000, { artifact, blockNumber, chainId: 1, status: "undercollateralised" }),
      );
      const row = await store.statements.byHash(hash(9));
      expect(row).toMatchObject({
        attestationHash: hash(9),
        signer: "0x5F4eC3Df9cbd43714FE2740f5E3616155c5b8419",
        timestamp: 1_700_000_000,
        blockNumber,
        chainId: 1,
        status: "undercollateralised",
        artifact,
      });
      expect(typeof row?.id).toBe("number");
      expect(row?.createdAt).toBeInstanceOf(Date);
    });

    it("is idempotent on the attestation hash, whatever its case", async () => {
      const { store } = await fresh();
      const original = statement(0xabc, 1_000);
      expect(await store.statements.insert(original)).toEqual({ inserted: true });
      expect(await store.statements.insert(original)).toEqual({ inserted: false });
      const upper = `0x${original.attestationHash.slice(2).toUpperCase()}`;
      expect(await store.statements.insert({ ...original, attestationHash: upper, artifact: "{}" })).toEqual({
        inserted: false,
      });
      expect(await store.statements.list({ limit: 10 })).toHaveLength(1);
      expect((await store.statements.latest())?.artifact).toBe(original.artifact);
    });

    it("finds by hash case-insensitively, and a malformed or unknown hash is not found", async () => {
      const { store } = await fresh();
      const mixed = `0x${"aBcD".repeat(16)}`;
      await store.statements.insert(statement(0, 1_000, { attestationHash: mixed }));
      expect((await store.statements.byHash(`0x${mixed.slice(2).toUpperCase()}`))?.attestationHash).toBe(
        mixed.toLowerCase(),
      );
      expect((await store.statements.byHash(mixed.toLowerCase()))?.timestamp).toBe(1_000);
      expect(await store.statements.byHash(hash(12345))).toBeNull();
      expect(await store.statements.byHash("0x1234")).toBeNull();
      expect(await store.statements.byHash("'; DROP TABLE signed_statement; --")).toBeNull();
    });

    it("lists newest first, clamps the limit to 1..500, and pages with an exclusive `before`", async () => {
      const { store } = await fresh();
      for (let i = 1; i <= 510; i++) await store.statements.insert(statement(i, 1_000 + i * 3_600));
      const timestamps = (rows: { timestamp: number }[]) => rows.map((r) => r.timestamp);

      const page1 = await store.statements.list({ limit: 3 });
      expect(timestamps(page1)).toEqual([1_000 + 510 * 3_600, 1_000 + 509 * 3_600, 1_000 + 508 * 3_600]);
      const page2 = await store.statements.list({ limit: 3, before: page1.at(-1)!.timestamp });
      expect(timestamps(page2)).toEqual([1_000 + 507 * 3_600, 1_000 + 506 * 3_600, 1_000 + 505 * 3_600]);

      expect(await store.statements.list({ limit: 10_000 })).toHaveLength(500);
      expect(await store.statements.list({ limit: 0 })).toHaveLength(1);
      expect(await store.statements.list({ limit: -5 })).toHaveLength(1);
      expect(await store.statements.list({ limit: 2.9 })).toHaveLength(2);
      expect(await store.statements.list({ limit: 10, before: 1_000 + 3_600 })).toEqual([]);
      expect(timestamps(await store.statements.list({ limit: 10, before: 1_000 + 3 * 3_600 }))).toEqual([
        1_000 + 2 * 3_600,
        1_000 + 3_600,
      ]);
      await expect(store.statements.list({ limit: Number.NaN })).rejects.toThrow(OperatorStoreError);
      await expect(store.statements.list({ limit: 10, before: 1.5 })).rejects.toThrow(OperatorStoreError);
    });

    it("latestAtOrBefore returns the statement in force at a time", async () => {
      const { store } = await fresh();
      await store.statements.insert(statement(1, 1_000));
      await store.statements.insert(statement(2, 2_000));
      expect(await store.statements.latestAtOrBefore(999)).toBeNull();
      expect((await store.statements.latestAtOrBefore(1_000))?.attestationHash).toBe(hash(1));
      expect((await store.statements.latestAtOrBefore(1_999))?.attestationHash).toBe(hash(1));
      expect((await store.statements.latestAtOrBefore(5_000))?.attestationHash).toBe(hash(2));
    });

    it("rejects malformed rows with OperatorStoreError instead of storing them", async () => {
      const { store } = await fresh();
      const bad: Partial<NewStatement>[] = [
        { attestationHash: "0x1234" },
        { timestamp: 1.5 },
        { timestamp: -1 },
        { blockNumber: -1n },
        { blockNumber: 2n ** 63n },
        { chainId: 0 },
        { artifact: "" },
        { signer: "" },
      ];
      for (const extra of bad)
        await expect(store.statements.insert(statement(1, 1_000, extra))).rejects.toThrow(OperatorStoreError);
      expect(await store.statements.latest()).toBeNull();
    });
  });

  it("persists across close and reopen", async () => {
    const { store, schema } = await fresh();
    await store.statements.insert(statement(7, 7_000));
    expect(await store.payments.reserve({ network: "base", payer: "0xaa", nonce: "0x01", resource: "/r" })).toBe(true);
    await store.close();
    await expect(store.statements.latest()).rejects.toThrow(/closed/);
    await store.close(); // closing twice is harmless

    const { store: reopened } = await fresh(schema);
    expect((await reopened.statements.latest())?.attestationHash).toBe(hash(7));
    expect(await reopened.statements.insert(statement(7, 7_000))).toEqual({ inserted: false });
    expect((await reopened.payments.get({ network: "base", payer: "0xaa", nonce: "0x01" }))?.status).toBe("reserved");
    expect(await reopened.payments.reserve({ network: "base", payer: "0xaa", nonce: "0x01", resource: "/r" })).toBe(
      false,
    );
  });

  describe("payments", () => {
    const key = {
      network: "eip155:8453",
      payer: "0xabcdefabcdefabcdefabcdefabcdefabcdef0123",
      nonce: `0x${"ab".repeat(32)}`,
    };

    it("reserves a key exactly once under concurrency", async () => {
      const { store } = await fresh();
      const results = await Promise.all(
        Array.from({ length: 10 }, () => store.payments.reserve({ ...key, resource: "/api/paid" })),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
      const row = await store.payments.get(key);
      expect(row).toMatchObject({ ...key, status: "reserved", resource: "/api/paid", settlementTx: null });
      expect(row?.createdAt).toBeInstanceOf(Date);
    });

    it("treats hex payer and nonce case-insensitively, so checksum casing is not a second key", async () => {
      const { store } = await fresh();
      expect(await store.payments.reserve({ ...key, resource: "/r" })).toBe(true);
      const upper = (hex: string) => `0x${hex.slice(2).toUpperCase()}`;
      expect(
        await store.payments.reserve({ ...key, payer: upper(key.payer), nonce: upper(key.nonce), resource: "/r" }),
      ).toBe(false);
      expect(await store.payments.get({ ...key, payer: upper(key.payer) })).toMatchObject(key);
      // A different network is a different authorization.
      expect(await store.payments.reserve({ ...key, network: "eip155:84532", resource: "/r" })).toBe(true);
    });

    it("release frees a reserved key for a retry", async () => {
      const { store } = await fresh();
      expect(await store.payments.reserve({ ...key, resource: "/r" })).toBe(true);
      expect(await store.payments.release(key)).toBe(true);
      expect(await store.payments.get(key)).toBeNull();
      expect(await store.payments.release(key)).toBe(false);
      expect(await store.payments.reserve({ ...key, resource: "/r" })).toBe(true);
    });

    it("never releases a settled authorization", async () => {
      const { store } = await fresh();
      const tx = `0x${"cd".repeat(32)}`;
      expect(await store.payments.reserve({ ...key, resource: "/r" })).toBe(true);
      await store.payments.markSettled(key, tx);
      await store.payments.markSettled(key, `0x${tx.slice(2).toUpperCase()}`); // retry with the same tx is fine
      expect(await store.payments.release(key)).toBe(false);
      expect(await store.payments.reserve({ ...key, resource: "/r" })).toBe(false);
      const row = await store.payments.get(key);
      expect(row).toMatchObject({ status: "settled", settlementTx: tx });
      expect(row!.updatedAt.getTime()).toBeGreaterThanOrEqual(row!.createdAt.getTime());
      // A different tx for the same authorization is a conflict, not an overwrite.
      await expect(store.payments.markSettled(key, `0x${"ef".repeat(32)}`)).rejects.toThrow(OperatorStoreError);
    });

    it("keeps the reservation's block, and lists reservations untouched since a time (requests that died)", async () => {
      const { store } = await fresh();
      const other = { ...key, nonce: `0x${"ac".repeat(32)}` };
      expect(await store.payments.reserve({ ...key, resource: "/r", reservedBlock: 123n })).toBe(true);
      expect(await store.payments.reserve({ ...other, resource: "/r" })).toBe(true);
      await store.payments.markSettled(other, `0x${"cd".repeat(32)}`);
      expect(await store.payments.get(key)).toMatchObject({ reservedBlock: 123n, delivered: true });
      expect(await store.payments.staleReservations(new Date(Date.now() - 60_000))).toEqual([]);
      const stale = await store.payments.staleReservations(new Date(Date.now() + 1_000));
      expect(stale.map((r) => r.nonce)).toEqual([key.nonce]); // the settled one is not a reservation
    });

    it("owes one answer for a settlement recorded as not delivered: exactly one claim of the same resource gets it", async () => {
      const { store } = await fresh();
      const tx = `0x${"cd".repeat(32)}`;
      expect(await store.payments.reserve({ ...key, resource: "GET /paid/reserves" })).toBe(true);
      expect(await store.payments.claimRedelivery(key, "GET /paid/reserves")).toBeNull(); // still only reserved
      await store.payments.markSettled(key, tx, { delivered: false });
      expect(await store.payments.get(key)).toMatchObject({ status: "settled", delivered: false });
      expect(await store.payments.claimRedelivery(key, "POST /paid/instant-read")).toBeNull(); // another resource
      const claims = await Promise.all(
        Array.from({ length: 5 }, () => store.payments.claimRedelivery(key, "GET /paid/reserves")),
      );
      expect(claims.filter((c) => c !== null)).toEqual([tx]);
      expect(await store.payments.get(key)).toMatchObject({ status: "settled", delivered: true, settlementTx: tx });
    });

    it("refuses to settle a key that was never reserved", async () => {
      const { store } = await fresh();
      const error = await store.payments.markSettled(key, "0x01").catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OperatorStoreError);
      expect((error as OperatorStoreError).details).toMatchObject({ status: null });
      expect(await store.payments.get(key)).toBeNull();
    });
  });

  it("rejects an unsafe schema name before touching the database", async () => {
    await expect(openOperatorStore({ ...backend.options(), schema: 'x"; DROP SCHEMA public; --' })).rejects.toThrow(
      OperatorStoreError,
    );
  });

  if (backend.name === "postgres") {
    it("two processes opening the same new schema at once both succeed", async () => {
      const schema = `kusd_operator_test_${runId}_race`;
      schemas.push(schema);
      const [a, b] = await Promise.all([
        openOperatorStore({ ...backend.options(), schema }),
        openOperatorStore({ ...backend.options(), schema }),
      ]);
      open.push(a, b);
      // And the reservation race holds across separate connection pools.
      const results = await Promise.all(
        [a, b, a, b].map((s) => s.payments.reserve({ network: "n", payer: "p", nonce: "1", resource: "/r" })),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
    });

    it("reports an unreachable server as OperatorStoreError without leaking the URL", async () => {
      const error = await openOperatorStore({
        databaseUrl: "postgres://user:secret@127.0.0.1:1/none",
        schema: "x",
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OperatorStoreError);
      expect(JSON.stringify((error as OperatorStoreError).details)).not.toContain("secret");
    });
  }
});
