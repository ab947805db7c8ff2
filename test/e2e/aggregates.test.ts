/**
 * GraphQL aggregates (swapAggregates, transferAggregates, vaultEventAggregates) against sources
 * that share nothing with the SQL grouping: swaps this test sends itself (amounts it chose, fees
 * and payouts from the receipts), the PSMs' Swap logs, kUSD Transfer logs of registry accounts
 * and skUSD's ERC-4626 logs read from the chain with viem, bucketed here with Date alone.
 */

import { PGlite } from "@electric-sql/pglite";
import { readServiceEnv } from "@kusd/config";
import { selectNetwork } from "@kusd/config/node";
import { getTableConfig } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePg } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import {
  type AbiEvent,
  type Address,
  erc20Abi,
  erc4626Abi,
  getAbiItem,
  maxUint256,
  parseEventLogs,
  parseUnits,
} from "viem";
import { describe, expect, inject, it } from "vitest";
import { fiatTokenV2Abi, kusdAbi, kusdpsmAbi } from "../../abis/index.js";
import { swapBuckets } from "../../api/graphql/aggregates/swap-query.js";
import type { ReadDb } from "../../api/io/indexed-reads.js";
import { devnetKey } from "../../devnet/keys.js";
import { stack } from "../helpers/stack.js";

const s = stack();
const d = s.deployment;
const END = BigInt(d.chains.base.historyEndBlock);
const PSMS = ["psmMint", "psmRetiredMint", "psmRedeemReserve"] as const;

type Result = { data?: any; errors?: { message: string; extensions?: Record<string, unknown> }[] };
const gql = async (query: string): Promise<Result> => {
  const res = await fetch(`${s.indexerUrl}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query }),
  });
  return (await res.json()) as Result;
};
const ok = async (query: string) => {
  const r = await gql(query);
  expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
  return r.data;
};

/** UTC bucket labels computed with Date alone (not the code under test). */
const utcDay = (t: number) => `${new Date(t * 1000).toISOString().slice(0, 10)}T00:00:00.000Z`;
const utcHour = (t: number) => `${new Date(t * 1000).toISOString().slice(0, 13)}:00:00.000Z`;
const utcMonth = (t: number) => `${new Date(t * 1000).toISOString().slice(0, 7)}-01T00:00:00.000Z`;

/** Block times for logs: one header read per distinct block. */
async function timesOf(blocks: bigint[]): Promise<Map<bigint, number>> {
  const unique = [...new Set(blocks)];
  const times = new Map<bigint, number>();
  for (let i = 0; i < unique.length; i += 50) {
    const batch = unique.slice(i, i + 50);
    const headers = await Promise.all(batch.map((blockNumber) => s.client.getBlock({ blockNumber })));
    for (const h of headers) times.set(h.number!, Number(h.timestamp));
  }
  return times;
}

/** Count, sum, min and max of raw amounts, as the API's AmountStats carries them (raw as strings). */
type Stats = { count: number; sum: bigint; min: bigint; max: bigint };
const add = (st: Stats | undefined, v: bigint): Stats =>
  st
    ? { count: st.count + 1, sum: st.sum + v, min: v < st.min ? v : st.min, max: v > st.max ? v : st.max }
    : { count: 1, sum: v, min: v, max: v };
const fromApi = (x: any): Stats | null =>
  x && { count: x.count, sum: BigInt(x.sum.raw), min: BigInt(x.min.raw), max: BigInt(x.max.raw) };
const STATS = "count sum { raw unit decimals formatted } min { raw unit decimals } max { raw unit decimals }";

/** The stack's database engine in this process (see the limit test). */
async function openEngine(): Promise<{ db: ReadDb; close(): Promise<void> }> {
  if (inject("database") === "postgres") {
    const client = postgres(process.env.DATABASE_URL!, { max: 1, connection: { search_path: inject("viewsSchema") } });
    return { db: drizzlePg(client, { schema: s.schema, casing: "snake_case" }) as never, close: () => client.end() };
  }
  const pglite = new PGlite();
  const table = getTableConfig(s.schema.psmSwap);
  const direction = table.columns.find((c) => c.name === "direction") as unknown as {
    enum: { enumName: string; enumValues: string[] };
  };
  await pglite.exec(
    `create type "${direction.enum.enumName}" as enum (${direction.enum.enumValues.map((v) => `'${v}'`).join(", ")})`,
  );
  await pglite.exec(
    `create table "${table.name}" (${table.columns
      .map((c) => `"${c.name}" ${c === (direction as unknown) ? `"${direction.enum.enumName}"` : c.getSQLType()}`)
      .join(", ")})`,
  );
  const db = drizzlePglite(pglite, { schema: s.schema });
  const rows = await s.db.select().from(s.schema.psmSwap);
  for (let i = 0; i < rows.length; i += 200) await db.insert(s.schema.psmSwap).values(rows.slice(i, i + 200));
  return { db: db as never, close: () => pglite.close() };
}

describe("swapAggregates", () => {
  it("equals the swaps this test sends: amounts it chose, fees and payouts from the receipts", async () => {
    const user = devnetKey("test:aggregates");
    const wallet = s.wallet(user.privateKey);
    const circle = s.wallet(d.accounts.circle!.privateKey);
    await s.client.request({
      method: "anvil_setBalance" as never,
      params: [user.address, "0x3635C9ADC5DEA00000"] as never,
    });
    const send = async (hash: Promise<`0x${string}`>) => s.client.waitForTransactionReceipt({ hash: await hash });
    const psm = s.addr("psmMint");
    await send(
      circle.writeContract({
        address: s.addr("usdc"),
        abi: fiatTokenV2Abi,
        functionName: "mint",
        args: [user.address, parseUnits("2000", 6)],
      }),
    );
    await send(
      wallet.writeContract({
        address: s.addr("usdc"),
        abi: erc20Abi,
        functionName: "approve",
        args: [psm, maxUint256],
      }),
    );
    await send(
      wallet.writeContract({ address: s.addr("kUSD"), abi: kusdAbi, functionName: "approve", args: [psm, maxUint256] }),
    );
    const sent = [
      { direction: "mint", amount: parseUnits("1000", 6) },
      { direction: "mint", amount: parseUnits("250", 6) },
      { direction: "redeem", amount: parseUnits("100", 18) },
    ] as const;
    const receipts = [];
    for (const x of sent)
      receipts.push(
        await send(
          wallet.writeContract({
            address: psm,
            abi: kusdpsmAbi,
            functionName: x.direction === "mint" ? "swapStableForKUSD" : "swapKUSDForStable",
            args: [s.addr("usdc"), x.amount],
          }),
        ),
      );
    const first = receipts[0]!.blockNumber;
    const last = receipts.at(-1)!.blockNumber;
    await s.indexedThrough(last);
    const times = await timesOf(receipts.map((r) => r.blockNumber));

    // Expected per UTC hour and direction, from what was sent and what the receipts say moved.
    const me = user.address.toLowerCase();
    const expected = new Map<string, { usdc?: Stats; kusd?: Stats; fee?: Stats; netKusd: bigint; netUsdc: bigint }>();
    for (const [i, r] of receipts.entries()) {
      const x = sent[i]!;
      const transfers = parseEventLogs({ abi: erc20Abi, eventName: "Transfer", logs: r.logs });
      const received = (token: Address) =>
        transfers
          .filter((t) => t.address.toLowerCase() === token.toLowerCase() && t.args.to.toLowerCase() === me)
          .reduce((a, t) => a + t.args.value, 0n);
      const [swap] = parseEventLogs({ abi: kusdpsmAbi, eventName: "Swap", logs: r.logs });
      const usdc = x.direction === "mint" ? x.amount : received(s.addr("usdc"));
      const kusd = x.direction === "mint" ? received(s.addr("kUSD")) : x.amount;
      const key = `${utcHour(times.get(r.blockNumber)!)}|${x.direction}`;
      const e = expected.get(key) ?? { netKusd: 0n, netUsdc: 0n };
      const sign = x.direction === "mint" ? 1n : -1n;
      expected.set(key, {
        usdc: add(e.usdc, usdc),
        kusd: add(e.kusd, kusd),
        fee: add(e.fee, swap!.args.fee),
        netKusd: e.netKusd + sign * kusd,
        netUsdc: e.netUsdc + sign * usdc,
      });
    }
    // Small swaps pay the flat 10 bps, in the token taken in.
    const allFees = receipts.map(
      (r) => parseEventLogs({ abi: kusdpsmAbi, eventName: "Swap", logs: r.logs })[0]!.args.fee,
    );
    expect(allFees).toEqual([parseUnits("1", 6), parseUnits("0.25", 6), parseUnits("0.1", 18)]);

    const data = await ok(`{ swapAggregates(interval: HOUR, groupBy: [DIRECTION], psm: [psmMint],
      range: { fromBlock: "${first}", toBlock: "${last}" }) {
        periodStart periodEnd psm direction feeBps count mints redemptions
        usdc { ${STATS} } kusd { ${STATS} } mintFees { ${STATS} } redeemFees { ${STATS} }
        netKusd { raw unit decimals formatted } netUsdc { raw unit decimals formatted } } }`);
    const buckets = data.swapAggregates as any[];
    expect(buckets.map((b) => `${b.periodStart}|${b.direction}`).sort()).toEqual([...expected.keys()].sort());
    for (const b of buckets) {
      const e = expected.get(`${b.periodStart}|${b.direction}`)!;
      expect(Date.parse(b.periodEnd) - Date.parse(b.periodStart)).toBe(3_600_000);
      expect([b.psm, b.feeBps]).toEqual([null, null]);
      expect(fromApi(b.usdc)).toEqual(e.usdc);
      expect(fromApi(b.kusd)).toEqual(e.kusd);
      expect(fromApi(b.direction === "mint" ? b.mintFees : b.redeemFees)).toEqual(e.fee);
      expect(b.direction === "mint" ? b.redeemFees : b.mintFees).toBeNull();
      expect([BigInt(b.netKusd.raw), BigInt(b.netUsdc.raw)]).toEqual([e.netKusd, e.netUsdc]);
      // Every amount names its unit and decimals, and formatted is raw at those decimals.
      expect([b.usdc.sum.unit, b.usdc.sum.decimals, b.kusd.max.unit, b.kusd.max.decimals]).toEqual([
        "USDC",
        6,
        "kUSD",
        18,
      ]);
      const fee = b.mintFees ?? b.redeemFees;
      expect([fee.sum.unit, fee.sum.decimals]).toEqual(b.direction === "mint" ? ["USDC", 6] : ["kUSD", 18]);
      expect(Number(b.netUsdc.formatted)).toBeCloseTo(Number(BigInt(b.netUsdc.raw)) / 1e6, 6);
    }
    // Summed over the hours: exactly what was sent.
    const total = (dir: string, f: (b: any) => string) =>
      buckets.filter((b) => b.direction === dir).reduce((a, b) => a + BigInt(f(b)), 0n);
    expect(total("mint", (b) => b.usdc.sum.raw)).toBe(parseUnits("1250", 6));
    expect(total("redeem", (b) => b.kusd.sum.raw)).toBe(parseUnits("100", 18));
    expect(total("mint", (b) => b.mintFees.sum.raw)).toBe(parseUnits("1.25", 6));
    expect(total("redeem", (b) => b.redeemFees.sum.raw)).toBe(parseUnits("0.1", 18));
  });

  it("per UTC day, PSM and direction equals the PSMs' Swap logs read from the chain; nets per PSM", async () => {
    const swapEvent = getAbiItem({ abi: kusdpsmAbi, name: "Swap" }) as AbiEvent;
    const logs = await s.client.getLogs({
      address: PSMS.map((k) => s.addr(k)),
      event: swapEvent,
      fromBlock: 0n,
      toBlock: END,
      strict: true,
    });
    expect(logs.length).toBeGreaterThan(10);
    const times = await timesOf(logs.map((l) => l.blockNumber));
    const keyOf = new Map(PSMS.map((k) => [s.addr(k).toLowerCase(), k]));
    const byGroup = new Map<string, { usdc?: Stats; kusd?: Stats; fee?: Stats }>();
    const nets = new Map<string, { kusd: bigint; usdc: bigint }>();
    for (const l of logs) {
      const { fromToken, amount, fee } = l.args as { fromToken: Address; amount: bigint; fee: bigint };
      // The PSM takes `amount` of fromToken, keeps `fee` of it, and converts the rest 1:1 (USDC 6 ↔ kUSD 18 decimals).
      const mint = fromToken.toLowerCase() !== s.addr("kUSD").toLowerCase();
      const usdc = mint ? amount : (amount - fee) / 10n ** 12n;
      const kusd = mint ? (amount - fee) * 10n ** 12n : amount;
      const day = utcDay(times.get(l.blockNumber)!);
      const psm = keyOf.get(l.address.toLowerCase())!;
      const key = `${day}|${psm}|${mint ? "mint" : "redeem"}`;
      const e = byGroup.get(key) ?? {};
      byGroup.set(key, { usdc: add(e.usdc, usdc), kusd: add(e.kusd, kusd), fee: add(e.fee, fee) });
      const n = nets.get(`${day}|${psm}`) ?? { kusd: 0n, usdc: 0n };
      nets.set(`${day}|${psm}`, { kusd: n.kusd + (mint ? kusd : -kusd), usdc: n.usdc + (mint ? usdc : -usdc) });
    }
    const range = `range: { toBlock: "${END}" }`;
    const data = await ok(`{
      byDirection: swapAggregates(interval: DAY, groupBy: [PSM, DIRECTION], ${range}) {
        periodStart psm direction count usdc { ${STATS} } kusd { ${STATS} } mintFees { ${STATS} } redeemFees { ${STATS} } }
      byPsm: swapAggregates(interval: DAY, groupBy: [PSM], ${range}) { periodStart psm direction mints redemptions netKusd { raw } netUsdc { raw } } }`);
    expect(data.byDirection.map((b: any) => `${b.periodStart}|${b.psm}|${b.direction}`).sort()).toEqual(
      [...byGroup.keys()].sort(),
    );
    // Buckets come in time order.
    const starts = data.byDirection.map((b: any) => Date.parse(b.periodStart));
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
    for (const b of data.byDirection) {
      const e = byGroup.get(`${b.periodStart}|${b.psm}|${b.direction}`)!;
      expect(b.count).toBe(e.usdc!.count);
      expect(fromApi(b.usdc)).toEqual(e.usdc);
      expect(fromApi(b.kusd)).toEqual(e.kusd);
      expect(fromApi(b.direction === "mint" ? b.mintFees : b.redeemFees)).toEqual(e.fee);
    }
    expect(data.byPsm.map((b: any) => `${b.periodStart}|${b.psm}`).sort()).toEqual([...nets.keys()].sort());
    for (const b of data.byPsm) {
      expect(b.direction).toBeNull();
      expect({ kusd: BigInt(b.netKusd.raw), usdc: BigInt(b.netUsdc.raw) }).toEqual(
        nets.get(`${b.periodStart}|${b.psm}`),
      );
    }
    // Both directions occur on one PSM and day somewhere, so the net is a real difference there.
    expect(data.byPsm.some((b: any) => b.mints > 0 && b.redemptions > 0)).toBe(true);
  });

  it("per fee tier, ISO week and month equals a grouping of the indexed rows; the old psmVolume agrees", async () => {
    const rows = (await s.db.select().from(s.schema.psmSwap)).filter((r) => r.blockNumber <= END);
    const monday = (t: number) => {
      const day = Math.floor(t / 86_400);
      // 1970-01-01 was a Thursday (day 0): Monday-based weekday is (day + 3) % 7.
      return utcDay((day - ((day + 3) % 7)) * 86_400);
    };
    const byWeek = new Map<string, { count: number; fee: bigint }>();
    const byMonth = new Map<string, { count: number; usdc: bigint; fee: bigint }>();
    for (const r of rows) {
      const t = Number(r.timestamp);
      const w = `${monday(t)}|${r.psmKey}|${r.direction}|${r.feeBps}`;
      const a = byWeek.get(w) ?? { count: 0, fee: 0n };
      byWeek.set(w, { count: a.count + 1, fee: a.fee + r.fee });
      const m = `${utcMonth(t)}|${r.psmKey}|${r.direction}`;
      const b = byMonth.get(m) ?? { count: 0, usdc: 0n, fee: 0n };
      byMonth.set(m, { count: b.count + 1, usdc: b.usdc + r.usdcAmount, fee: b.fee + r.fee });
    }
    const range = `range: { toBlock: "${END}" }`;
    const data = await ok(`{
      week: swapAggregates(interval: WEEK, ${range}) { periodStart periodEnd psm direction feeBps count mintFees { sum { raw } } redeemFees { sum { raw } } }
      month: swapAggregates(interval: MONTH, groupBy: [PSM, DIRECTION], ${range}) { periodStart periodEnd psm direction count usdc { sum { raw } } }
      old: psmVolume(interval: MONTH, ${range}) { period psmKey direction count usdcTotal feeTotal fee { raw unit decimals } } }`);
    expect(data.week).toHaveLength(byWeek.size);
    expect(new Set(data.week.map((b: any) => b.feeBps)).size).toBeGreaterThan(2);
    for (const b of data.week) {
      expect(new Date(b.periodStart).getUTCDay()).toBe(1); // a Monday
      expect(Date.parse(b.periodEnd) - Date.parse(b.periodStart)).toBe(7 * 86_400_000);
      const fee = (b.mintFees ?? b.redeemFees).sum.raw;
      expect({ count: b.count, fee: BigInt(fee) }).toEqual(
        byWeek.get(`${b.periodStart}|${b.psm}|${b.direction}|${b.feeBps}`),
      );
    }
    expect(data.month).toHaveLength(byMonth.size);
    for (const b of data.month) {
      const start = new Date(b.periodStart);
      expect(b.periodEnd).toBe(new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1)).toISOString());
      const e = byMonth.get(`${b.periodStart}|${b.psm}|${b.direction}`)!;
      expect({ count: b.count, usdc: BigInt(b.usdc.sum.raw) }).toEqual({ count: e.count, usdc: e.usdc });
    }
    // psmVolume (deprecated) is the same grouping; its fee is now labelled by direction.
    expect(data.old).toHaveLength(byMonth.size);
    for (const o of data.old) {
      const e = byMonth.get(`${o.period}T00:00:00.000Z|${o.psmKey}|${o.direction}`)!;
      expect([o.count, BigInt(o.usdcTotal), BigInt(o.feeTotal), BigInt(o.fee.raw)]).toEqual([
        e.count,
        e.usdc,
        e.fee,
        e.fee,
      ]);
      expect([o.fee.unit, o.fee.decimals]).toEqual(o.direction === "mint" ? ["USDC", 6] : ["kUSD", 18]);
    }
  });

  it("refuses more groups than the limit with BAD_USER_INPUT naming it, in SQL on this database's engine", async () => {
    // Ponder's private /sql allows no function calls (date_trunc), so the query runs in this
    // process: on the stack's PostgreSQL views schema, or on a PGlite holding a copy of the swaps.
    const engine = await openEngine();
    try {
      const q = { interval: "DAY", groupBy: ["PSM", "DIRECTION", "FEE_TIER"], range: { toBlock: END } } as const;
      const served = await ok(
        `{ swapAggregates(interval: DAY, range: { toBlock: "${END}" }) { periodStart psm direction feeBps count usdc { sum { raw } } } }`,
      );
      const here = await swapBuckets(engine.db, q);
      expect(
        here.map((b) => [b.periodStart, b.psmKey, b.direction, b.feeBps, b.count, String(b.usdc.sum.raw)]),
      ).toEqual(
        served.swapAggregates.map((b: any) => [b.periodStart, b.psm, b.direction, b.feeBps, b.count, b.usdc.sum.raw]),
      );
      let caught: any;
      await swapBuckets(engine.db, q, 3).catch((e) => {
        caught = e;
      });
      expect(caught?.extensions, String(caught?.stack ?? caught)).toMatchObject({
        code: "BAD_USER_INPUT",
        limit: "MAX_BUCKETS",
        max: 3,
      });
      expect(caught.message).toMatch(/more than 3 buckets \(the MAX_BUCKETS limit\)/);
      expect(await swapBuckets(engine.db, q, here.length)).toHaveLength(here.length);
    } finally {
      await engine.close();
    }
    // The whole devnet history by the hour is within the real limit.
    const all = await ok(`{ swapAggregates(interval: HOUR) { count } }`);
    expect(all.swapAggregates.length).toBeGreaterThan(3);
    const bad = await gql(`{ swapAggregates(interval: YEAR) { count } }`);
    expect(bad.errors?.length).toBeGreaterThan(0);
    const badRange = await gql(`{ swapAggregates(interval: DAY, range: { from: "yesterday" }) { count } }`);
    expect(badRange.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
  });
});

describe("transferAggregates", () => {
  it("kUSD per UTC day equals the chain's kUSD Transfer logs with a registry account on either side", async () => {
    const network = selectNetwork(readServiceEnv(process.env));
    const listed = new Set(network.registryAccounts.map((a) => a.toLowerCase()));
    const transferEvent = getAbiItem({ abi: erc20Abi, name: "Transfer" }) as AbiEvent;
    const logs = (
      await s.client.getLogs({
        address: s.addr("kUSD"),
        event: transferEvent,
        fromBlock: 0n,
        toBlock: END,
        strict: true,
      })
    ).filter((l) => {
      const { from, to } = l.args as { from: Address; to: Address };
      return listed.has(from.toLowerCase()) || listed.has(to.toLowerCase());
    });
    expect(logs.length).toBeGreaterThan(5);
    const times = await timesOf(logs.map((l) => l.blockNumber));
    const byDay = new Map<string, Stats>();
    for (const l of logs) {
      const day = utcDay(times.get(l.blockNumber)!);
      byDay.set(day, add(byDay.get(day), (l.args as { value: bigint }).value));
    }
    const data =
      await ok(`{ transferAggregates(interval: DAY, groupBy: [], token: ["kUSD"], range: { toBlock: "${END}" }) {
      periodStart tokenSymbol classification count amount { ${STATS} } } }`);
    expect(data.transferAggregates.map((b: any) => b.periodStart)).toEqual([...byDay.keys()].sort());
    for (const b of data.transferAggregates) {
      expect([b.tokenSymbol, b.classification, b.amount.sum.unit, b.amount.sum.decimals]).toEqual([
        "kUSD",
        null,
        "kUSD",
        18,
      ]);
      expect(fromApi(b.amount)).toEqual(byDay.get(b.periodStart));
    }
  });

  it("per token and classification equals a grouping of the indexed rows, each token in its own unit", async () => {
    const rows = (await s.db.select().from(s.schema.registryTransfer)).filter((r) => r.blockNumber <= END);
    const byMonth = new Map<string, Stats>();
    for (const r of rows) {
      const k = `${utcMonth(Number(r.timestamp))}|${r.tokenSymbol}|${r.classification}`;
      byMonth.set(k, add(byMonth.get(k), r.amount));
    }
    const data = await ok(`{ transferAggregates(interval: MONTH, range: { toBlock: "${END}" }) {
      periodStart tokenSymbol classification amount { ${STATS} } } }`);
    expect(data.transferAggregates).toHaveLength(byMonth.size);
    // The units as this test knows them (the tokens' decimals() on the devnet).
    const units: Record<string, [string, number]> = {
      USDC: ["USDC", 6],
      kUSD: ["kUSD", 18],
      WETH: ["WETH", 18],
      skUSD: ["skUSD shares", 24],
      "skUSD-v1": ["skUSD v1 shares", 24],
    };
    for (const b of data.transferAggregates) {
      expect(fromApi(b.amount)).toEqual(byMonth.get(`${b.periodStart}|${b.tokenSymbol}|${b.classification}`));
      expect([b.amount.max.unit, b.amount.max.decimals]).toEqual(units[b.tokenSymbol]);
    }
    expect(new Set(data.transferAggregates.map((b: any) => b.tokenSymbol)).size).toBeGreaterThan(2);
    const bad = await gql(`{ transferAggregates(interval: DAY, token: ["DAI"]) { count } }`);
    expect(bad.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
    expect(bad.errors?.[0]?.message).toMatch(/DAI is not one of USDC, kUSD/);
  });
});

describe("vaultEventAggregates", () => {
  it("skUSD deposits and withdrawals per month equal its ERC-4626 logs; shares in skUSD's decimals()", async () => {
    const vault = s.addr("skUSD");
    const byMonth = new Map<string, { assets?: Stats; shares?: Stats }>();
    for (const name of ["Deposit", "Withdraw"] as const) {
      const logs = await s.client.getLogs({
        address: vault,
        event: getAbiItem({ abi: erc4626Abi, name }) as AbiEvent,
        fromBlock: 0n,
        toBlock: END,
        strict: true,
      });
      const times = await timesOf(logs.map((l) => l.blockNumber));
      for (const l of logs) {
        const { assets, shares } = l.args as { assets: bigint; shares: bigint };
        const k = `${utcMonth(times.get(l.blockNumber)!)}|${name.toLowerCase()}`;
        const e = byMonth.get(k) ?? {};
        byMonth.set(k, { assets: add(e.assets, assets), shares: add(e.shares, shares) });
      }
    }
    expect(byMonth.size).toBeGreaterThan(1);
    const data =
      await ok(`{ vaultEventAggregates(interval: MONTH, vault: [skUSD], kind: ["deposit", "withdraw"], range: { toBlock: "${END}" }) {
      periodStart vaultKey kind count assets { ${STATS} } shares { ${STATS} } } }`);
    expect(data.vaultEventAggregates.map((b: any) => `${b.periodStart}|${b.kind}`)).toEqual([...byMonth.keys()].sort());
    const decimals = await s.client.readContract({ address: vault, abi: erc20Abi, functionName: "decimals" });
    for (const b of data.vaultEventAggregates) {
      const e = byMonth.get(`${b.periodStart}|${b.kind}`)!;
      expect(fromApi(b.assets)).toEqual(e.assets);
      expect(fromApi(b.shares)).toEqual(e.shares);
      expect([b.assets.sum.unit, b.assets.sum.decimals]).toEqual(["kUSD", 18]);
      expect([b.shares.sum.unit, b.shares.sum.decimals]).toEqual(["skUSD shares", decimals]);
    }
  });

  it("labels every vault's shares with its decimals() and leaves null what a kind does not carry", async () => {
    const data = await ok(`{ vaultEventAggregates(interval: MONTH, range: { toBlock: "${END}" }) {
      vaultKey kind count assets { sum { unit decimals } } shares { sum { unit decimals } } } }`);
    const rows = (await s.db.select().from(s.schema.vaultEvent)).filter((r) => r.blockNumber <= END);
    expect(data.vaultEventAggregates.reduce((a: number, b: any) => a + b.count, 0)).toBe(rows.length);
    const vaults = new Set<string>(data.vaultEventAggregates.map((b: any) => b.vaultKey));
    expect(vaults.size).toBeGreaterThan(2);
    for (const key of vaults) {
      const onChain = await s.client.readContract({ address: s.addr(key), abi: erc20Abi, functionName: "decimals" });
      for (const b of data.vaultEventAggregates.filter((x: any) => x.vaultKey === key && x.shares))
        expect(b.shares.sum.decimals, `${key} shares`).toBe(onChain);
    }
    // A share transfer moves no assets; yield moves no shares.
    for (const b of data.vaultEventAggregates.filter((x: any) => x.kind === "transfer")) expect(b.assets).toBeNull();
    for (const b of data.vaultEventAggregates.filter((x: any) => x.kind === "yield")) expect(b.shares).toBeNull();
  });
});
