/**
 * `npm run bench:head [-- --blocks N --databases pglite,postgres]`: head latency on a devnet of its
 * own (issue 41). Each measured block carries a redemption (a PSM swap) and a registry violation
 * (WETH out of a listed account to a stranger). From the block's mining (its newHeads
 * notification on the bench's own WebSocket to anvil) to:
 *   (a) `/status` showing it, (b) `/api/stats` answering at it (both asked every 20 ms),
 *   (c) the DETECTED event of its swap on a GraphQL subscription (SSE),
 *   (d) `kusd-monitor`'s alert for its violation reaching a webhook (the CLI, as a process).
 * Two cadences: Base's (a block every 2 s, both transactions in it) and one block per
 * transaction (automine: the swap's block for (a)–(c), the violation's for (d)). Median and
 * p99 of each, against the issue's targets. Not a test: it asserts nothing.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import {
  createPublicClient,
  createWalletClient,
  type Hex,
  http,
  maxUint256,
  parseEther,
  type WalletClient,
  webSocket,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { kusdAbi, kusdpsmAbi, weth9Abi } from "../abis/index.js";
import { devnetChain } from "../devnet/chains.js";
import { readDeployment } from "../devnet/deployment.js";
import { devnetKey } from "../devnet/keys.js";
import { startIndexer } from "../stack/indexer.js";
import { sseSubscriptions } from "../test/helpers/graphql-streams.js";
import { freePort } from "../test/helpers/ports.js";
import { benchDevnet } from "./bench-devnet.js";
import { atMost, type Figure, recordFigures } from "./results.js";
import { createScratchDatabase, postgresAnswers } from "./scratch-database.js";

const { values } = parseArgs({
  options: {
    blocks: { type: "string", default: "50" },
    databases: { type: "string", default: "pglite" },
    /** Reuse a running devnet (its deployment.json) instead of playing one. */
    devnet: { type: "string" },
  },
});
const BLOCKS = Number(values.blocks);
const dir = mkdtempSync(join(tmpdir(), "kusd-bench-head-"));
process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
const SECRET = "bench-head-secret";

type Marks = { mined?: number; status?: number; stats?: number; swap?: number; alert?: number };
const quantile = (xs: number[], q: number) =>
  xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]! : Number.NaN;

/** Asks `read` every `everyMs` and marks, for each block, the first time the answer reached it. */
function follow(read: () => Promise<number | null>, mark: (block: number, at: number) => void, everyMs = 20) {
  let on = true;
  let seen = -1;
  const done = (async () => {
    while (on) {
      const n = await read().catch(() => null);
      const at = performance.now();
      if (n !== null && n > seen) {
        for (let b = seen + 1; b <= n; b++) if (seen >= 0) mark(b, at);
        seen = n;
      }
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  return async () => {
    on = false;
    await done;
  };
}

async function measure(database: "pglite" | "postgres", deploymentFile: string) {
  const devnetD = readDeployment(deploymentFile);
  const rpcUrl = devnetD.chains.base.rpcUrl;
  const chain = devnetChain(8453, rpcUrl);
  const client = createPublicClient({ chain, transport: http(rpcUrl), pollingInterval: 50 });
  const ws = createPublicClient({ chain, transport: webSocket(rpcUrl.replace(/^http/, "ws")) });
  const wallet = (key: Hex): WalletClient =>
    createWalletClient({ account: privateKeyToAccount(key), chain, transport: http(rpcUrl), pollingInterval: 50 });
  const addr = (name: string) => devnetD.chains.base.contracts[name]!.address;
  const pg = database === "postgres" ? createScratchDatabase(PG, "kusd_bench_head") : null;
  const marks = new Map<number, Marks>();
  const at = (b: number) => marks.get(b) ?? marks.set(b, {}).get(b)!;
  const stops: (() => unknown)[] = [];
  let monitor: ChildProcess | null = null;
  const indexer = await startIndexer({
    port: await freePort(),
    deploymentFile,
    pgliteDir: join(dir, `pglite-${database}`),
    databaseUrl: pg?.url,
    readyTimeoutMs: 600_000,
  });
  try {
    const url = indexer.url;
    // The chain's own clock: when the bench's newHeads subscription hears of each block.
    const unwatch = ws.watchBlockNumber({
      emitOnBegin: false,
      onBlockNumber: (n) => (at(Number(n)).mined = performance.now()),
    });
    stops.push(unwatch, async () => (await ws.transport.getRpcClient()).close());
    stops.push(
      follow(
        async () =>
          ((await (await fetch(`${url}/status`)).json()) as { base?: { block?: { number: number } } }).base?.block
            ?.number ?? null,
        (b, t) => (at(b).status ??= t),
      ),
    );
    stops.push(
      follow(
        async () => {
          const res = await fetch(`${url}/api/stats`);
          return res.ok ? ((await res.json()) as { blockNumber: number }).blockNumber : null;
        },
        (b, t) => (at(b).stats ??= t),
      ),
    );
    const start = Number(await client.getBlockNumber({ cacheTime: 0 }));
    const sse = await sseSubscriptions(`${url}/graphql`, {
      swaps: {
        query: "subscription($from: BigInt) { psmSwaps(fromBlock: $from) { kind swap { blockNumber } } }",
        variables: { from: String(start + 1) },
        field: "psmSwaps",
      },
    });
    stops.push(sse.close);
    const swaps = sse.streams.swaps!;
    const seenSwaps = new Set<number>();
    const onSwap = () => {
      for (const e of swaps.items as { kind: string; swap: { blockNumber: string } }[]) {
        const b = Number(e.swap.blockNumber);
        if (e.kind === "DETECTED" && !seenSwaps.has(b)) {
          seenSwaps.add(b);
          at(b).swap = performance.now();
        }
      }
    };
    const swapTimer = setInterval(onSwap, 5);
    stops.push(() => clearInterval(swapTimer));
    // (d) the monitor as an operator runs it, delivering to a webhook of the bench's own.
    const hook = createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        const alert = JSON.parse(body) as { type?: string; kind?: string; blockNumber?: number };
        if (alert.type === "alert" && alert.kind === "violation" && alert.blockNumber !== undefined)
          at(alert.blockNumber).alert ??= performance.now();
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => hook.listen(0, "127.0.0.1", r));
    stops.push(() => new Promise<void>((r) => hook.close(() => r())));
    monitor = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        "packages/monitor/src/main.ts",
        "--api",
        url,
        "--webhook",
        `http://127.0.0.1:${(hook.address() as { port: number }).port}/`,
        "--state-dir",
        join(dir, `monitor-${database}`),
        "--base-delay-ms",
        "20",
      ],
      { env: { ...process.env, KUSD_MONITOR_SECRET: SECRET }, stdio: "ignore" },
    );
    await new Promise((r) => setTimeout(r, 3_000)); // the monitor's first poll

    const operator = wallet(devnetD.accounts.operator!.privateKey);
    const hedge = wallet(devnetD.accounts.hedgeWatchOnly!.privateKey);
    const stranger = devnetKey("bench:head-stranger").address;
    const psm = addr("psmMint");
    await client.waitForTransactionReceipt({
      hash: await operator.writeContract({
        chain,
        account: operator.account!,
        address: addr("kUSD"),
        abi: kusdAbi,
        functionName: "approve",
        args: [psm, maxUint256],
      }),
    });
    const swap = () =>
      operator.writeContract({
        chain,
        account: operator.account!,
        address: psm,
        abi: kusdpsmAbi,
        functionName: "swapKUSDForStable",
        args: [addr("usdc"), parseEther("1")],
      });
    const violate = () =>
      hedge.writeContract({
        chain,
        account: hedge.account!,
        address: addr("weth"),
        abi: weth9Abi,
        functionName: "transfer",
        args: [stranger, 10n ** 12n],
      });
    const rows: { cadence: string; swapBlocks: number[]; violationBlocks: number[] }[] = [];

    // One block per transaction (automine): a swap's block, then a violation's.
    const perTx = { cadence: "one block per transaction", swapBlocks: [] as number[], violationBlocks: [] as number[] };
    for (let i = 0; i < BLOCKS; i++) {
      perTx.swapBlocks.push(Number((await client.waitForTransactionReceipt({ hash: await swap() })).blockNumber));
      perTx.violationBlocks.push(
        Number((await client.waitForTransactionReceipt({ hash: await violate() })).blockNumber),
      );
      await new Promise((r) => setTimeout(r, 300));
    }
    rows.push(perTx);

    // Base's cadence: a block every 2 s, both transactions in it.
    await client.request({ method: "evm_setAutomine" as never, params: [false] as never });
    await client.request({ method: "evm_setIntervalMining" as never, params: [2] as never });
    const base = { cadence: "a block every 2 s (Base)", swapBlocks: [] as number[], violationBlocks: [] as number[] };
    try {
      for (let i = 0; i < BLOCKS; i++) {
        const [s, v] = await Promise.all([swap(), violate()]);
        const [rs, rv] = await Promise.all([
          client.waitForTransactionReceipt({ hash: s }),
          client.waitForTransactionReceipt({ hash: v }),
        ]);
        base.swapBlocks.push(Number(rs.blockNumber));
        base.violationBlocks.push(Number(rv.blockNumber));
      }
    } finally {
      await client.request({ method: "evm_setIntervalMining" as never, params: [0] as never });
      await client.request({ method: "evm_setAutomine" as never, params: [true] as never });
    }
    rows.push(base);
    await new Promise((r) => setTimeout(r, 3_000)); // the last alerts
    onSwap();

    const figures: Figure[] = [];
    const lines: string[] = [];
    for (const r of rows) {
      const lag = (blocks: number[], k: keyof Marks) =>
        blocks.flatMap((b) => {
          const m = marks.get(b);
          return m?.mined !== undefined && m[k] !== undefined ? [m[k]! - m.mined] : [];
        });
      const cols = [
        ["(a) /status", lag(r.swapBlocks, "status"), 500, 1500],
        ["(b) /api/stats", lag(r.swapBlocks, "stats"), 500, 1500],
        ["(c) subscription", lag(r.swapBlocks, "swap"), 500, 1500],
        ["(d) monitor alert", lag(r.violationBlocks, "alert"), 1000, 2000],
      ] as const;
      for (const [name, xs, p50Max, p99Max] of cols) {
        const p50 = quantile(xs, 0.5);
        const p99 = quantile(xs, 0.99);
        lines.push(
          `${database.padEnd(8)}  ${r.cadence.padEnd(26)}  ${name.padEnd(18)}  ${p50.toFixed(0).padStart(6)}  ${p99.toFixed(0).padStart(6)}  ${String(xs.length).padStart(3)}/${r.swapBlocks.length}`,
        );
        const label = `${name} after the block is mined, ${r.cadence}, ${database === "pglite" ? "PGlite" : "PostgreSQL"}`;
        figures.push({ figure: `${label}: median`, value: p50, unit: "ms", ...atMost(p50, p50Max, "ms") });
        figures.push({ figure: `${label}: p99`, value: p99, unit: "ms", ...atMost(p99, p99Max, "ms") });
      }
    }
    console.log(`\n${"database".padEnd(8)}  ${"cadence".padEnd(26)}  ${"latency of".padEnd(18)}  median     p99  seen`);
    console.log(lines.join("\n"));
    recordFigures("head", figures);
  } finally {
    monitor?.kill("SIGTERM");
    for (const stop of stops.reverse()) await stop();
    await indexer.stop();
    pg?.drop();
  }
}

const PG = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

async function main() {
  const file = values.devnet ?? join(dir, "deployment.json");
  const devnet = await benchDevnet({ scale: 1, file, reuse: values.devnet });
  try {
    for (const database of values.databases.split(",") as ("pglite" | "postgres")[]) {
      if (database === "postgres" && !postgresAnswers(PG)) {
        console.log("postgres: not reachable, skipped (set BENCH_DATABASE_URL)");
        continue;
      }
      await measure(database, file);
    }
  } finally {
    await devnet.stop();
  }
  console.log(
    "\nmilliseconds from the block's newHeads notification to each reader seeing it; targets: (a)–(c) median ≤ 500, p99 ≤ 1,500; (d) median ≤ 1,000, p99 ≤ 2,000.",
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
