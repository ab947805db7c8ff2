/**
 * `npm run bench:cost`: what running on Base costs in RPC calls, on the mainnet-shaped rehearsal
 * (devnet/rehearsal: the faithful contracts at their Base addresses, at Base's real heights, the
 * unmodified `base` configuration). Every call the service sends goes through a counting proxy
 * (devnet/rpc-proxy.ts: calls by method, each call of a JSON-RPC batch counted, and HTTP requests),
 * one in front of the indexer (Ponder and our indexing reads) and one in front of the API's reads.
 *
 *   1. Backfill from the first deployment to the head: ours, bare Ponder on the same sources
 *      (bench/bare, as bench:index), and the minimum: the eth_getLogs ranges the provider's range
 *      limit forces plus the blocks that must be read.
 *   2. Following the head (a block every 2 s, in real time, for --window seconds each): nobody
 *      reading, one page open (the page's requests every 30 s), and --viewers pages at random
 *      phases. Per hour = the window's calls × 3600 / window: every source of calls here is paced
 *      by the clock (Ponder's polling, Base's block time, the page's 30 s refresh), so the window
 *      is a scaled hour.
 *   3. The same in Alchemy's compute units (bench/cost-prices.ts cites the table).
 * Not a test: it asserts nothing; figures go to `npm run bench`'s table (BENCH_RESULTS).
 */
import { appendFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { Hex } from "viem";
import { ChainDriver } from "../devnet/driver.js";
import { type MainnetRehearsal, startMainnetRehearsal } from "../devnet/rehearsal/index.js";
import { createRng } from "../devnet/rng.js";
import { rpcCall } from "../devnet/rpc.js";
import { type RpcProxy, type RpcProxyStats, startRpcProxy } from "../devnet/rpc-proxy.js";
import { type Indexer, startIndexer } from "../stack/indexer.js";
import { freePort } from "../test/helpers/ports.js";
import { ALCHEMY_CU_SOURCE, computeUnits, PROVIDER_LOG_RANGE } from "./cost-prices.js";
import { type Figure, recordFigures } from "./results.js";
import { subscriptions } from "./subscriptions.js";

const { values } = parseArgs({
  options: {
    /** The provider's eth_getLogs block range (KUSD_ETH_GET_LOGS_BLOCK_RANGE). */
    range: { type: "string", default: String(PROVIDER_LOG_RANGE) },
    /** Seconds each head-following scenario runs. */
    window: { type: "string", default: "120" },
    viewers: { type: "string", default: "100" },
    /** Skip bare Ponder's backfill (its figures are then absent). */
    "no-bare": { type: "boolean", default: false },
    /** Append the indexers' output to this file. */
    log: { type: "string" },
    /** KUSD_HEAD_FRESH_MS for our service (default: the service's own, 4000). */
    "head-fresh-ms": { type: "string" },
  },
});
const RANGE = Number(values.range);
const WINDOW_S = Number(values.window);
const VIEWERS = Number(values.viewers);
const BLOCK_S = 2;
const REFRESH_S = 30;

type Calls = { calls: number; requests: number; byMethod: Record<string, number> };

function delta(after: RpcProxyStats, before: RpcProxyStats): Calls {
  const byMethod: Record<string, number> = {};
  for (const [m, n] of Object.entries(after.byMethod)) {
    const d = n - (before.byMethod[m] ?? 0);
    if (d > 0) byMethod[m] = d;
  }
  return { calls: after.forwarded - before.forwarded, requests: after.requests - before.requests, byMethod };
}

const add = (a: Calls, b: Calls): Calls => {
  const byMethod = { ...a.byMethod };
  for (const [m, n] of Object.entries(b.byMethod)) byMethod[m] = (byMethod[m] ?? 0) + n;
  return { calls: a.calls + b.calls, requests: a.requests + b.requests, byMethod };
};

const scale = (c: Calls, k: number): Calls => ({
  calls: c.calls * k,
  requests: c.requests * k,
  byMethod: Object.fromEntries(Object.entries(c.byMethod).map(([m, n]) => [m, n * k])),
});

const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
const methods = (c: Calls) =>
  Object.entries(c.byMethod)
    .sort((a, b) => b[1] - a[1])
    .map(([m, n]) => `${m} ${fmt(n)}`)
    .join(", ");
const cu = (c: Calls) => computeUnits(c.byMethod).cu;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

/** The indexer (ours, or bare Ponder from bench/bare) on the rehearsal, its RPC through `proxy`. */
async function indexer(
  r: MainnetRehearsal,
  dir: string,
  label: string,
  proxies: { indexing: RpcProxy; api: RpcProxy },
  root?: string,
): Promise<Indexer> {
  return startIndexer({
    port: await freePort(),
    network: "env",
    env: {
      ...r.env,
      // Ponder budgets each listed URL separately (see the rehearsal): ten copies of one proxy.
      PONDER_RPC_URL_8453: Array(10).fill(proxies.indexing.url).join(","),
      KUSD_READ_RPC_URL_8453: proxies.api.url,
      KUSD_ETH_GET_LOGS_BLOCK_RANGE: String(RANGE),
      KUSD_STORE_DIR: join(dir, `store-${label}`),
      ...(values["head-fresh-ms"] && { KUSD_HEAD_FRESH_MS: values["head-fresh-ms"] }),
    },
    pgliteDir: join(dir, `pglite-${label}`),
    viewsSchema: `cost_${label}`,
    readyTimeoutMs: 1_800_000,
    ...(root && { root }),
    ...(values.log && { onOutput: (line: string) => appendFileSync(values.log!, `${label} ${line}\n`) }),
  });
}

/** Backfill from `ponder start` to the rehearsal's head: the calls it took. */
async function backfill(
  r: MainnetRehearsal,
  dir: string,
  label: string,
  root?: string,
): Promise<{
  calls: Calls;
  api: Calls;
  seconds: number;
  indexer: Indexer;
  proxies: { indexing: RpcProxy; api: RpcProxy };
}> {
  const proxies = {
    indexing: await startRpcProxy({ upstream: r.baseRpcUrl }),
    api: await startRpcProxy({ upstream: r.baseRpcUrl }),
  };
  const started = performance.now();
  const before = { indexing: proxies.indexing.stats(), api: proxies.api.stats() };
  const ix = await indexer(r, dir, label, proxies, root);
  await ix.waitForBlock("base", r.facts.headHeight, 1_800_000);
  const seconds = (performance.now() - started) / 1000;
  return {
    calls: delta(proxies.indexing.stats(), before.indexing),
    api: delta(proxies.api.stats(), before.api),
    seconds,
    indexer: ix,
    proxies,
  };
}

/**
 * The least any indexer of these sources must send for the backfill: per `RANGE` blocks, one
 * eth_getLogs for each filter that cannot share a request with another (the protocol's contracts,
 * every event: one filter; USDC and WETH moves of registry accounts: one with the account as the
 * first indexed argument, one as the second), plus one block read for each block that has an
 * event or is a block-interval source's block, plus one eth_call for each interval block (all
 * share prices and feeds of a block in one aggregate3).
 */
async function minimum(r: MainnetRehearsal): Promise<{ calls: Calls; detail: string }> {
  const net = r.network;
  const filters = subscriptions(net);
  const first = Math.min(...filters.map((f) => f.fromBlock));
  const head = r.facts.headHeight;
  const eventBlocks = new Set<number>();
  for (const f of filters) {
    // The simulator answers any range; the minimum only needs which blocks have events.
    const logs = await rpcCall<{ blockNumber: Hex }[]>(
      r.baseRpcUrl,
      "eth_getLogs",
      [
        {
          address: f.address,
          topics: f.topics,
          fromBlock: `0x${f.fromBlock.toString(16)}`,
          toBlock: `0x${head.toString(16)}`,
        },
      ],
      120_000,
    );
    for (const l of logs) eventBlocks.add(Number(l.blockNumber));
  }
  const intervalBlocks = new Set<number>();
  const everyInterval = (start: number, interval: number) => {
    for (let b = start; b <= head; b += interval) intervalBlocks.add(b);
  };
  const vaults = Object.values(net.stakingVaults);
  if (vaults.length) everyInterval(Math.min(...vaults.map((v) => v.startBlock)), net.sharePriceInterval);
  const feeds = Object.values(net.lsts).flatMap((l) => (l.kind === "exchange-rate-feed" ? [l] : []));
  if (feeds.length)
    everyInterval(Math.min(...feeds.map((f) => f.startBlock)), Math.min(...feeds.map((f) => f.intervalBlocks)));
  const ranges = Math.ceil((head - first + 1) / RANGE);
  const logFilters = 3;
  const blocks = new Set([...eventBlocks, ...intervalBlocks]).size;
  const byMethod = { eth_getLogs: ranges * logFilters, eth_getBlockByNumber: blocks, eth_call: intervalBlocks.size };
  const calls = byMethod.eth_getLogs + byMethod.eth_getBlockByNumber + byMethod.eth_call;
  return {
    calls: { calls, requests: calls, byMethod },
    detail: `${fmt(head - first + 1)} blocks from ${fmt(first)} to ${fmt(head)}: ${fmt(ranges)} ranges of ${fmt(RANGE)} × ${logFilters} filters; ${fmt(eventBlocks.size)} blocks with events, ${fmt(intervalBlocks.size)} interval blocks`,
  };
}

/** The page's requests on one refresh (web/src/main.tsx, Safety, ReservesChart, Violations). */
async function pageRefresh(api: string): Promise<void> {
  const get = async (path: string) => {
    const res = await fetch(`${api}${path}`);
    if (!res.ok) throw new Error(`${path}: ${res.status} ${(await res.text()).slice(0, 200)}`);
    return res.json() as Promise<{ blockNumber: number }>;
  };
  const { blockNumber: n } = await get("/api/por");
  await Promise.all([
    get(`/api/history?interval=DAY&toBlock=${n}`),
    get(`/api/psm-status?block=${n}`),
    get(`/api/risk-status?block=${n}`),
    get(`/api/por/accounts/violations?limit=1000&fromBlock=0&toBlock=${n}`),
  ]);
}

/**
 * `seconds` of following the head: a block every 2 s and `viewers` pages refreshing every 30 s
 * from random phases. The calls both proxies saw, and how many blocks and refreshes there were.
 */
async function followHead(
  driver: ChainDriver,
  api: string,
  proxies: { indexing: RpcProxy; api: RpcProxy },
  viewers: number,
  seconds: number,
  seed: number,
): Promise<{ indexing: Calls; api: Calls; blocks: number; refreshes: number; failed: number }> {
  const random = createRng(seed);
  const before = { indexing: proxies.indexing.stats(), api: proxies.api.stats() };
  const start = Date.now();
  const end = start + seconds * 1000;
  let blocks = 0;
  let refreshes = 0;
  let failed = 0;
  const chain = (async () => {
    for (let t = start + BLOCK_S * 1000; t <= end; t += BLOCK_S * 1000) {
      await sleep(t - Date.now());
      await driver.mineEmpty(1);
      blocks++;
    }
  })();
  const pages = Array.from({ length: viewers }, async () => {
    for (let t = start + random() * REFRESH_S * 1000; t < end; t += REFRESH_S * 1000) {
      await sleep(t - Date.now());
      await pageRefresh(api).then(
        () => refreshes++,
        () => failed++,
      );
    }
  });
  await Promise.all([chain, ...pages]);
  await sleep(end - Date.now());
  return {
    indexing: delta(proxies.indexing.stats(), before.indexing),
    api: delta(proxies.api.stats(), before.api),
    blocks,
    refreshes,
    failed,
  };
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), "kusd-cost-"));
  const stops: (() => Promise<unknown>)[] = [];
  const figures: Figure[] = [];
  try {
    console.log("mainnet rehearsal ...");
    const r = await startMainnetRehearsal({
      base: await freePort(),
      ethereum: await freePort(),
      venue: await freePort(),
    });
    stops.push(() => r.stop());
    console.log(
      `rehearsal head at height ${fmt(r.facts.headHeight)}; provider eth_getLogs range ${fmt(RANGE)}; KUSD_HEAD_FRESH_MS ${values["head-fresh-ms"] ?? "default"}`,
    );

    const min = await minimum(r);
    console.log(`minimum: ${fmt(min.calls.calls)} calls (${methods(min.calls)}); ${min.detail}`);

    let bare: Awaited<ReturnType<typeof backfill>> | null = null;
    if (!values["no-bare"]) {
      console.log("backfill: bare Ponder ...");
      bare = await backfill(r, dir, "bare", join(import.meta.dirname, "bare"));
      await bare.indexer.stop();
      await Promise.all([bare.proxies.indexing.stop(), bare.proxies.api.stop()]);
    }
    console.log("backfill: ours ...");
    const ours = await backfill(r, dir, "ours");
    stops.push(
      () => ours.indexer.stop(),
      () => ours.proxies.indexing.stop(),
      () => ours.proxies.api.stop(),
    );
    const oursTotal = add(ours.calls, ours.api);

    console.log("\n## Backfill, first deployment to the rehearsal's head\n");
    console.log("| | RPC calls | HTTP requests | Alchemy CU | seconds | calls by method |");
    console.log("|---|---:|---:|---:|---:|---|");
    const row = (name: string, c: Calls, seconds?: number) =>
      console.log(
        `| ${name} | ${fmt(c.calls)} | ${fmt(c.requests)} | ${fmt(cu(c))} | ${seconds === undefined ? "" : seconds.toFixed(0)} | ${methods(c)} |`,
      );
    row("ours (indexer + API)", oursTotal, ours.seconds);
    row("  of which the indexer", ours.calls);
    row("  of which the API", ours.api);
    if (bare) row("bare Ponder, same sources", add(bare.calls, bare.api), bare.seconds);
    row("minimum", min.calls);
    figures.push({
      figure: "backfill on the rehearsal: RPC calls",
      value: oursTotal.calls,
      unit: "calls",
      ...(bare && { baseline: { name: "bare Ponder, same sources", value: bare.calls.calls + bare.api.calls } }),
    });
    figures.push({
      figure: "backfill on the rehearsal: RPC calls against the minimum",
      value: oursTotal.calls,
      unit: "calls",
      baseline: { name: "minimum (ranges + blocks to read)", value: min.calls.calls },
    });
    figures.push({
      figure: "backfill on the rehearsal: HTTP requests",
      value: oursTotal.requests,
      unit: "requests",
      ...(bare && { baseline: { name: "bare Ponder, same sources", value: bare.calls.requests + bare.api.requests } }),
    });

    // Following the head, on anvil blocks 2 s apart (the simulator presents each at the next height).
    const latest = await rpcCall<{ timestamp: Hex }>(r.anvilRpcUrl, "eth_getBlockByNumber", ["latest", false]);
    const driver = new ChainDriver(r.anvilRpcUrl, Number(latest.timestamp) + BLOCK_S, BLOCK_S);
    // Let the indexer and the API settle (the statement service's first tick, the first reports,
    // which contracts have code): what a service running for hours has long done.
    await followHead(driver, ours.indexer.url, ours.proxies, 0, 10, 1);
    await pageRefresh(ours.indexer.url);
    const perHour = 3600 / WINDOW_S;
    const scenarios: [string, number][] = [
      ["nobody reading", 0],
      ["one page open", 1],
      [`${VIEWERS} viewers`, VIEWERS],
    ];
    const rows: { name: string; total: Calls; api: Calls; blocks: number; refreshes: number; failed: number }[] = [];
    for (const [name, viewers] of scenarios) {
      console.log(`following the head: ${name}, ${WINDOW_S} s ...`);
      const w = await followHead(driver, ours.indexer.url, ours.proxies, viewers, WINDOW_S, 20261125 + viewers);
      rows.push({
        name,
        total: scale(add(w.indexing, w.api), perHour),
        api: scale(w.api, perHour),
        blocks: w.blocks,
        refreshes: w.refreshes,
        failed: w.failed,
      });
    }
    console.log(
      `\n## Following the head: per hour (measured over ${WINDOW_S} s each, a block every ${BLOCK_S} s, pages every ${REFRESH_S} s; × ${perHour.toFixed(0)})\n`,
    );
    console.log(
      "| | RPC calls / h | of which API | HTTP requests / h | Alchemy CU / h | blocks | page refreshes | calls by method / h |",
    );
    console.log("|---|---:|---:|---:|---:|---:|---:|---|");
    for (const x of rows)
      console.log(
        `| ${x.name} | ${fmt(x.total.calls)} | ${fmt(x.api.calls)} | ${fmt(x.total.requests)} | ${fmt(cu(x.total))} | ${x.blocks} | ${x.refreshes}${x.failed ? ` (${x.failed} failed)` : ""} | ${methods(x.total)} |`,
      );
    const none = rows[0]!.total;
    for (const x of rows.slice(1))
      figures.push({
        figure: `following the head, ${x.name}: RPC calls per hour`,
        value: x.total.calls,
        unit: "calls/h",
        baseline: { name: "nobody reading", value: none.calls },
        ...(x.name.endsWith("viewers") && { target: "≤ 2 ×", holds: x.total.calls <= 2 * none.calls }),
      });
    figures.push({
      figure: "following the head, nobody reading: RPC calls per hour",
      value: none.calls,
      unit: "calls/h",
    });
    figures.push({
      figure: `following the head, ${VIEWERS} viewers: Alchemy CU per hour`,
      value: cu(rows[2]!.total),
      unit: "CU/h",
      baseline: { name: "nobody reading", value: cu(none) },
    });
    console.log(`\nCompute units: Alchemy's table, ${ALCHEMY_CU_SOURCE}`);
    recordFigures("cost", figures);
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
