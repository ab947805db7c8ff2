/**
 * `npm run bench:api [-- --scale N --requests N --concurrency N --rounds N]`: our GraphQL (/graphql) against
 * Ponder's generated GraphQL (served for the bench only, KUSD_BENCH_ROUTES=1, at
 * /__bench/ponder/graphql) on the same indexed devnet (at least 200,000
 * events at the default scale), in one run: a page of 100 swaps filtered by one redeemer (the
 * most active swapper), same fields, same order. Prints p50/p99 latency and throughput under
 * `--concurrency` connections (autocannon) of each, median of `--rounds`, and the ratios. Not a test: it asserts nothing.
 * Uses PostgreSQL when DATABASE_URL/BENCH_DATABASE_URL is set, else PGlite.
 */
import { appendFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { createPublicClient, createWalletClient, type Hex, http, maxUint256, parseUnits } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { fiatTokenV2Abi, kusdAbi, kusdpsmAbi } from "../abis/index.js";
import { PONDER_GRAPHQL_BENCH_PATH } from "../api/http/bench-routes.js";
import { devnetChain } from "../devnet/chains.js";
import type { Deployment } from "../devnet/deployment.js";
import { startIndexer } from "../stack/indexer.js";
import { freePort } from "../test/helpers/ports.js";
import { benchDevnet } from "./bench-devnet.js";
import { atLeast, atMost, recordFigures } from "./results.js";
import { createScratchDatabase } from "./scratch-database.js";

const { values } = parseArgs({
  options: {
    scale: { type: "string", default: "1100" },
    requests: { type: "string", default: "2000" },
    /** Rounds over all targets; each figure is the median of its rounds (a round's order is rotated). */
    rounds: { type: "string", default: "3" },
    concurrency: { type: "string", default: "20" },
    /** Reuse a running devnet (its deployment.json) instead of playing one. */
    devnet: { type: "string" },
    /** Extra node flags for the indexer+API process, space-separated (e.g. --node-args=--trace-gc). */
    "node-args": { type: "string" },
    /** Write the indexer+API process's output to this file (with --node-args "--trace-gc", its pauses). */
    log: { type: "string" },
  },
});
const scale = Number(values.scale);
const requests = Number(values.requests);
const concurrency = Number(values.concurrency);
const rounds = Number(values.rounds);
const dir = mkdtempSync(join(tmpdir(), "kusd-bench-api-"));
const deploymentFile = values.devnet ?? join(dir, "deployment.json");
process.env.DEVNET_DEPLOYMENT = deploymentFile;

type Target = { name: string; url: string; body?: string; count: (json: any) => number };

async function once(t: Target): Promise<number> {
  const started = performance.now();
  const res = await fetch(
    t.url,
    t.body === undefined ? {} : { method: "POST", headers: { "content-type": "application/json" }, body: t.body },
  );
  const json = await res.json();
  if (json.errors) throw new Error(`${t.name}: ${JSON.stringify(json.errors)}`);
  t.count(json);
  return performance.now() - started;
}

/**
 * `requests` requests from `concurrency` connections at once, sent by autocannon (the load is
 * generated without decoding or parsing the answers, so the client's own work, on the same two
 * cores, weighs as little as it can on the server's figures): latency percentiles under that
 * load, and throughput. Each answer is checked once before and once after (`once`); a non-2xx
 * answer or a connection error fails the run.
 */
async function measure(t: Target) {
  const load = (amount: number) =>
    autocannon({
      url: t.url,
      connections: concurrency,
      amount,
      // What a browser or a GraphQL client sends: compressed answers, which the server caches per body.
      headers: { "accept-encoding": "gzip, deflate, br", "content-type": "application/json" },
      ...(t.body !== undefined && { method: "POST" as const, body: t.body }),
    });
  await once(t);
  await load(200); // warm-up
  const mark = (what: string) => values.log && appendFileSync(values.log, `### ${what} ${t.name}\n`);
  // The process's output is piped, so a marker lands near, not exactly at, the window's edge.
  mark("load from");
  const started = performance.now();
  const r = await load(requests);
  // autocannon's own duration is rounded; the wall time around it is not.
  const seconds = (performance.now() - started) / 1000;
  mark(`load to (p99 ${r.latency.p99} ms, max ${r.latency.max} ms)`);
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${t.name}: ${r.non2xx} non-2xx answers, ${r.errors} errors`);
  await once(t);
  return { p50: r.latency.p50, p99: r.latency.p99, throughput: r["2xx"] / seconds };
}

async function main() {
  console.log(`devnet at scale ${scale} ...`);
  const devnet = await benchDevnet({ scale, file: deploymentFile, reuse: values.devnet });
  await addHeavyRedeemer(devnet.deployment);
  const server = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
  // A database of the bench's own on that server, dropped when the bench ends.
  const databaseUrl = server ? createScratchDatabase(server, "kusd_bench_api").url : undefined;
  const indexer = await startIndexer({
    port: await freePort(),
    deploymentFile,
    databaseUrl,
    pgliteDir: join(dir, "pglite"),
    viewsSchema: "bench_api_views",
    readyTimeoutMs: 3_600_000,
    env: { KUSD_BENCH_ROUTES: "1" },
    ...(values["node-args"] && { nodeArgs: values["node-args"].split(" ").filter(Boolean) }),
    ...(values.log && { onOutput: (line: string) => appendFileSync(values.log!, `${line}\n`) }),
  });
  try {
    const d = devnet.deployment;
    const { rpcBlockNumber } = await import("../devnet/rpc.js");
    await indexer.waitForBlock("base", await rpcBlockNumber(d.chains.base.rpcUrl), 3_600_000);
    const sql = async (query: string) =>
      (await (
        await fetch(`${indexer.url}/graphql`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ query }),
        })
      ).json()) as any;
    const volume = await sql(`{ psmVolume(interval: MONTH) { count } }`);
    const swaps = volume.data.psmVolume.reduce((a: number, b: { count: number }) => a + b.count, 0);
    const user = await mostActiveSwapper(indexer.url);
    console.log(
      `indexed: ${swaps.toLocaleString("en-US")} swaps; page filtered by ${user.address} (${user.count} swaps)`,
    );
    const fields = "id usdcAmount kusdAmount fee blockNumber logIndex txHash";
    const ours: Target = {
      name: "ours",
      url: `${indexer.url}/graphql`,
      body: JSON.stringify({
        query: `{ psmSwaps(first: 100, where: { user: "${user.address}" }) { nodes { ${fields} } } }`,
      }),
      count: (j) => j.data.psmSwaps.nodes.length,
    };
    const ponder: Target = {
      name: "ponder",
      url: `${indexer.url}${PONDER_GRAPHQL_BENCH_PATH}`,
      body: JSON.stringify({
        query: `{ psmSwaps(where: { user: "${user.address.toLowerCase()}" }, limit: 100, orderBy: "blockNumber", orderDirection: "asc") { items { ${fields} } } }`,
      }),
      count: (j) => j.data.psmSwaps.items.length,
    };
    // The same page with a nested object per row (the swap's user account), ours only: Ponder's
    // generated schema has no relation for it.
    const nested: Target = {
      name: "ours, nested",
      url: `${indexer.url}/graphql`,
      body: JSON.stringify({
        query: `{ psmSwaps(first: 100, where: { user: "${user.address}" }) { nodes { ${fields} user { address } } } }`,
      }),
      count: (j) => j.data.psmSwaps.nodes.length,
    };
    // The server's own floor: a constant JSON answer of the same size through the same process
    // and middleware (GET /__bench/constant), with the same client and load.
    const size = (
      await (
        await fetch(ours.url, { method: "POST", headers: { "content-type": "application/json" }, body: ours.body })
      ).text()
    ).length;
    const constant: Target = {
      name: "constant",
      url: `${indexer.url}/__bench/constant?bytes=${size}`,
      count: (j) => j.rows.length,
    };
    // Every target once per round, the order rotated from round to round, so no target always
    // runs after another's garbage (Ponder's GraphQL leaves the most); each figure is the median
    // of its rounds.
    const targets = [constant, ours, ponder, nested];
    const runs = new Map<Target, Array<Awaited<ReturnType<typeof measure>>>>(targets.map((t) => [t, []]));
    for (let r = 0; r < rounds; r++)
      for (let i = 0; i < targets.length; i++) {
        const t = targets[(i + r) % targets.length]!;
        runs.get(t)!.push(await measure(t));
      }
    const median = (t: Target) => {
      const m = runs.get(t)!;
      const mid = (f: (x: (typeof m)[number]) => number) => m.map(f).sort((x, y) => x - y)[Math.floor(m.length / 2)]!;
      return { p50: mid((x) => x.p50), p99: mid((x) => x.p99), throughput: mid((x) => x.throughput) };
    };
    const [k, a, b, c] = targets.map(median) as [
      ReturnType<typeof median>,
      ReturnType<typeof median>,
      ReturnType<typeof median>,
      ReturnType<typeof median>,
    ];
    const row = (n: string, m: typeof a) =>
      `${n.padEnd(14)} p50 ${m.p50.toFixed(2).padStart(7)} ms  p99 ${m.p99.toFixed(2).padStart(7)} ms  ${m.throughput.toFixed(0).padStart(6)} req/s`;
    const db = databaseUrl ? "PostgreSQL" : "PGlite";
    console.log(
      `\n${db}, ${requests} requests from ${concurrency} concurrent clients, page of 100 rows (median of ${rounds} rounds)`,
    );
    console.log(row("ours", a));
    console.log(row("ponder", b));
    console.log(row("ours, nested", c));
    console.log(row(`constant ${size} B`, k));
    console.log(
      `ratios ours/ponder: p50 ${(a.p50 / b.p50).toFixed(2)}  p99 ${(a.p99 / b.p99).toFixed(2)}  throughput ${(a.throughput / b.throughput).toFixed(2)}`,
    );
    recordFigures("graphql", [
      {
        figure: `POST /graphql, page of 100 swaps, ${concurrency} clients, ${db}: req/s`,
        value: a.throughput,
        unit: "req/s",
        baseline: { name: "Ponder's generated GraphQL, same page", value: b.throughput },
        // Issue 29 item 6: at least three times Ponder's own GraphQL on the same page.
        ...atLeast(a.throughput / b.throughput, 3.0),
      },
      {
        figure: `POST /graphql, page of 100 swaps, ${concurrency} clients, ${db}: p99`,
        value: a.p99,
        unit: "ms",
        baseline: { name: "Ponder's p99", value: b.p99 },
        ...atMost(a.p99, 50, "ms"),
      },
      {
        figure: `POST /graphql, page of 100 swaps with user { address }, ${concurrency} clients: p99`,
        value: c.p99,
        unit: "ms",
        ...atMost(c.p99, 50, "ms"),
      },
      {
        figure: `POST /graphql, page of 100 swaps, ${concurrency} clients, ${db}: req/s against a constant answer of the same size`,
        value: a.throughput,
        unit: "req/s",
        baseline: { name: `GET /__bench/constant?bytes=${size}, same process and client`, value: k.throughput },
      },
    ]);
  } finally {
    await indexer.stop();
    await devnet.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * No ordinary user swaps 100 times, so one arbitrageur account mints once and then redeems
 * HEAVY_REDEMPTIONS times: the measured page (100 swaps of one redeemer) is a full page.
 */
const HEAVY_REDEMPTIONS = 150;
async function addHeavyRedeemer(d: Deployment) {
  const chain = devnetChain(8453, d.chains.base.rpcUrl);
  const client = createPublicClient({ chain, transport: http(d.chains.base.rpcUrl), pollingInterval: 50 }); // anvil mines at once: poll receipts fast
  const wallet = (key: Hex) =>
    createWalletClient({ account: privateKeyToAccount(key), chain, transport: http(d.chains.base.rpcUrl) });
  const c = d.chains.base.contracts;
  const circle = wallet(d.accounts.circle!.privateKey);
  const arb = wallet(d.accounts.arbitrageur!.privateKey);
  const wait = async (hash: Promise<Hex>) => client.waitForTransactionReceipt({ hash: await hash });
  await wait(
    circle.writeContract({
      address: c.usdc!.address,
      abi: fiatTokenV2Abi,
      functionName: "mint",
      args: [arb.account.address, parseUnits("20000", 6)],
    }),
  );
  await wait(
    arb.writeContract({
      address: c.usdc!.address,
      abi: fiatTokenV2Abi,
      functionName: "approve",
      args: [c.psmMint!.address, maxUint256],
    }),
  );
  await wait(
    arb.writeContract({
      address: c.psmMint!.address,
      abi: kusdpsmAbi,
      functionName: "swapStableForKUSD",
      args: [c.usdc!.address, parseUnits("20000", 6)],
    }),
  );
  await wait(
    arb.writeContract({
      address: c.kUSD!.address,
      abi: kusdAbi,
      functionName: "approve",
      args: [c.psmMint!.address, maxUint256],
    }),
  );
  for (let i = 0; i < HEAVY_REDEMPTIONS; i++) {
    await wait(
      arb.writeContract({
        address: c.psmMint!.address,
        abi: kusdpsmAbi,
        functionName: "swapKUSDForStable",
        args: [c.usdc!.address, parseUnits("100", 18)],
      }),
    );
  }
  // Past Ponder's finality depth, like the history's own padding.
  for (let i = 0; i < 40; i++) await client.request({ method: "evm_mine" as never });
}

async function mostActiveSwapper(url: string): Promise<{ address: string; count: number }> {
  const counts = new Map<string, number>();
  let after: string | null = null;
  do {
    const r: any = await (
      await fetch(`${url}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          query: `query($after: String) { psmSwaps(first: 500, after: $after) { nodes { user { address } } pageInfo { hasNextPage endCursor } } }`,
          variables: { after },
        }),
      })
    ).json();
    for (const n of r.data.psmSwaps.nodes) counts.set(n.user.address, (counts.get(n.user.address) ?? 0) + 1);
    after = r.data.psmSwaps.pageInfo.hasNextPage ? r.data.psmSwaps.pageInfo.endCursor : null;
  } while (after);
  const [address, count] = [...counts].sort((x, y) => y[1] - x[1])[0]!;
  return { address, count };
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
