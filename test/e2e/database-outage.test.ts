/**
 * PostgreSQL stopped for 30 s under a running stack and a light load (a server of the test's own,
 * so the machine's server is untouched). While it is down: no 500 and no hang; every route that
 * needs it answers 503 database_unavailable with Retry-After (GraphQL: UNAVAILABLE, 503), /ready
 * 503 at once, /api/health names the database and the operator store. A PSM mint and blocks mined
 * during the outage are indexed once it is back, and every answer after the restart equals the
 * chain. Runs on the PostgreSQL pass: it is PostgreSQL's outage it tests.
 */

import { eq } from "@ponder/client";
import { type Hex, maxUint256, parseUnits } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fiatTokenV2Abi, kusdpsmAbi } from "../../abis/index.js";
import { DEFAULT_HEAD_FRESH_MS } from "../../api/context.js";
import { devnetKey } from "../../devnet/keys.js";
import { type OwnIndexer, ownIndexers } from "../helpers/own-indexer.js";
import { type PrivatePostgres, postgresBinDir, startPrivatePostgres } from "../helpers/private-postgres.js";
import { stack } from "../helpers/stack.js";

const s = stack();
const d = s.deployment;
const OUTAGE_MS = 30_000;
const own = ownIndexers("outage");
let pg: PrivatePostgres | null = null;
let api: OwnIndexer;

type Answer = {
  path: string;
  status: number;
  ms: number;
  code: string | null;
  retryAfter: string | null;
  cache: string | null;
  at: number;
};
const PATHS = [
  "/api/por",
  "/api/stats",
  "/api/por?block=900",
  "/api/psm-status",
  "/api/por/signed",
  "/ready",
  "/status",
  "/api/health",
  `/graphql?query=${encodeURIComponent("{psmSwaps(first:1){nodes{id}}}")}`,
];

async function ask(url: string, path: string): Promise<Answer> {
  const t0 = Date.now();
  try {
    const res = await fetch(`${url}${path}`, { signal: AbortSignal.timeout(10_000) });
    const text = await res.text();
    let code: string | null = null;
    try {
      const body = JSON.parse(text) as {
        error?: { code?: string };
        errors?: { extensions?: { code?: string; reason?: string } }[];
      };
      code = body.error?.code ?? body.errors?.[0]?.extensions?.reason ?? body.errors?.[0]?.extensions?.code ?? null;
    } catch {
      code = null;
    }
    return {
      path,
      status: res.status,
      ms: Date.now() - t0,
      code,
      retryAfter: res.headers.get("retry-after"),
      cache: res.headers.get("x-cache"),
      at: t0,
    };
  } catch (e) {
    return { path, status: 0, ms: Date.now() - t0, code: (e as Error).name, retryAfter: null, cache: null, at: t0 };
  }
}

/** Every path every `everyMs` until stopped: a light, steady load. */
function load(url: string, everyMs = 250) {
  const answers: Answer[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      answers.push(...(await Promise.all(PATHS.map((p) => ask(url, p)))));
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  return {
    answers,
    stop: async () => {
      running = false;
      await loop;
    },
  };
}

/** A small PSM mint by an account of its own: an event the indexer must not miss. */
async function mint(label: string) {
  const user = devnetKey(`test:outage:${label}:${Date.now()}`);
  await s.client.request({
    method: "anvil_setBalance" as never,
    params: [user.address, "0x3635C9ADC5DEA00000"] as never,
  });
  const circle = s.wallet(d.accounts.circle!.privateKey);
  const wallet = s.wallet(user.privateKey);
  const amount = parseUnits("100", 6);
  await s.client.waitForTransactionReceipt({
    hash: await circle.writeContract({
      address: s.addr("usdc"),
      abi: fiatTokenV2Abi,
      functionName: "mint",
      args: [user.address, amount],
    }),
  });
  await s.client.waitForTransactionReceipt({
    hash: await wallet.writeContract({
      address: s.addr("usdc"),
      abi: fiatTokenV2Abi,
      functionName: "approve",
      args: [s.addr("psmMint"), maxUint256],
    }),
  });
  return s.client.waitForTransactionReceipt({
    hash: await wallet.writeContract({
      address: s.addr("psmMint"),
      abi: kusdpsmAbi,
      functionName: "swapStableForKUSD",
      args: [s.addr("usdc"), amount],
    }),
  });
}

const onPostgres = process.env.DATABASE_URL !== undefined && postgresBinDir() !== null;

beforeAll(async () => {
  if (!onPostgres) return;
  pg = await startPrivatePostgres();
  api = await own.start("outage", { databaseUrl: pg.url });
  await api.indexer.waitForBlock("base", Number(await s.client.getBlockNumber({ cacheTime: 0 })), 120_000);
}, 240_000);
afterAll(async () => {
  await own.cleanup();
  pg?.destroy();
});

describe.runIf(onPostgres)("PostgreSQL stopped for 30 s under load", () => {
  it("answers 503 database_unavailable at once (never 500, never a hang), and afterwards is correct and has indexed the outage", async () => {
    const url = api.indexer.url;
    const traffic = load(url);
    await new Promise((r) => setTimeout(r, 2_000));

    const down = Date.now();
    pg!.stop();
    // The chain goes on while the database is down: a mint, and blocks after it.
    const minted = await mint("during");
    for (let i = 0; i < 5; i++) await s.client.request({ method: "evm_mine" as never });
    const lastMined = Number(await s.client.getBlockNumber({ cacheTime: 0 }));
    await new Promise((r) => setTimeout(r, Math.max(0, OUTAGE_MS - (Date.now() - down))));
    const up = Date.now();
    pg!.start();

    // Back: the indexer catches up with every block mined meanwhile.
    await api.indexer.waitForBlock("base", lastMined, 120_000);
    await new Promise((r) => setTimeout(r, 1_000));
    await traffic.stop();

    const answers = traffic.answers;
    const during = answers.filter((a) => a.at > down + 500 && a.at + a.ms < up);
    const after = answers.filter((a) => a.at > up);
    console.log(
      `[outage] ${answers.length} answers, ${during.length} during the outage: ${JSON.stringify(Object.fromEntries(PATHS.map((p) => [p, [...new Set(during.filter((a) => a.path === p).map((a) => `${a.status} ${a.code ?? ""}`.trim()))]])))}`,
    );

    // Never a 500, never a dropped connection, never a hang.
    expect(
      answers.filter((a) => a.status >= 500 && a.status !== 503).map((a) => `${a.path} ${a.status} ${a.code}`),
    ).toEqual([]);
    expect(answers.filter((a) => a.status === 0).map((a) => `${a.path} ${a.code}`)).toEqual([]);
    expect(Math.max(...during.map((a) => a.ms)), "slowest answer during the outage (ms)").toBeLessThan(2_500);

    // What needs the database says so: 503 database_unavailable with Retry-After.
    for (const path of ["/api/por", "/api/stats", "/api/por?block=900", "/ready", "/status", "/api/por/signed"]) {
      const mine = during.filter((a) => a.path === path);
      expect(mine.length, path).toBeGreaterThan(5);
      const refused = mine.filter((a) => a.status === 503);
      expect(refused.length, `${path}: ${JSON.stringify(mine.map((a) => a.status))}`).toBeGreaterThan(mine.length / 2);
      for (const a of refused)
        expect({ path, code: a.code, retryAfter: a.retryAfter }).toEqual({
          path,
          code: "database_unavailable",
          retryAfter: expect.stringMatching(/^\d+$/),
        });
    }
    // GraphQL: an answer the cache already holds for the indexed state it last saw may be served
    // for one freshness window (headFreshMs) after the database goes; after that, and for anything
    // it must ask the database, 503 database_unavailable, and never a 200 again until it is back.
    const graphql = during.filter((a) => a.path.startsWith("/graphql"));
    const firstRefused = graphql.findIndex((a) => a.status !== 200);
    const cached = graphql.slice(0, Math.max(0, firstRefused));
    const refusedGraphql = graphql.slice(Math.max(0, firstRefused));
    const shown = JSON.stringify(graphql.map((a) => [a.at - down, a.status, a.code, a.cache]));
    expect(firstRefused, shown).toBeGreaterThanOrEqual(0);
    expect(refusedGraphql.length, shown).toBeGreaterThan(5);
    for (const a of cached) {
      expect(a.cache, shown).toBe("HIT");
      expect(a.at - down, shown).toBeLessThan(DEFAULT_HEAD_FRESH_MS + 1_000);
    }
    expect(
      refusedGraphql.every((a) => a.status === 503 && a.code === "database_unavailable"),
      shown,
    ).toBe(true);
    const health = await ask(url, "/api/health");
    expect(health.status).toBe(200);

    // After the restart: every answer 200 again, and right.
    const settled = after.filter((a) => a.at > up + 5_000);
    expect(settled.filter((a) => a.status !== 200).map((a) => `${a.path} ${a.status} ${a.code}`)).toEqual([]);
    const swap = await api.db
      .select()
      .from(s.schema.psmSwap)
      .where(eq(s.schema.psmSwap.txHash, minted.transactionHash));
    expect(swap).toHaveLength(1);
    expect(Number(swap[0]!.blockNumber)).toBe(Number(minted.blockNumber));
    expect(swap[0]!.usdcAmount).toBe(parseUnits("100", 6));
    const stats = (await (await fetch(`${url}/api/stats?block=${lastMined}`)).json()) as {
      psmUSDCMint: number;
      blockNumber: number;
    };
    const held = await s.client.readContract({
      address: s.addr("usdc") as Hex,
      abi: fiatTokenV2Abi,
      functionName: "balanceOf",
      args: [s.addr("psmMint") as Hex],
      blockNumber: BigInt(lastMined),
    });
    expect(stats.blockNumber).toBe(lastMined);
    expect(stats.psmUSDCMint).toBeCloseTo(Number(held) / 1e6, 6);
  }, 240_000);

  it("/api/health names the dependency that is down", async () => {
    const url = api.indexer.url;
    pg!.stop();
    try {
      const t0 = Date.now();
      const res = await fetch(`${url}/api/health`);
      const body = (await res.json()) as {
        ok: boolean;
        dependencies: Record<string, { ok: boolean | null; detail: string }>;
        problems: string[];
      };
      expect(Date.now() - t0).toBeLessThan(2_500);
      expect(res.status).toBe(200);
      expect(body.ok).toBe(false);
      expect(body.dependencies.database).toEqual({ ok: false, detail: "database_unavailable" });
      expect(body.dependencies.operatorStore).toEqual({ ok: false, detail: "database_unavailable" });
      expect(body.dependencies.chain?.ok).toBe(true);
      expect(body.problems).toContain("the database is unavailable: database_unavailable");
      const ready = await fetch(`${url}/ready`);
      expect(ready.status).toBe(503);
      expect(ready.headers.get("retry-after")).toBe("5");
    } finally {
      pg!.start();
    }
    await expect.poll(async () => (await fetch(`${url}/ready`)).status, { timeout: 30_000, interval: 250 }).toBe(200);
  }, 60_000);
});
