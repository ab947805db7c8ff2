/**
 * `npm run bench:flood [-- --seconds N --loops N --quiet-seconds N --only before,after --before-env NAME=VALUE ...]`:
 * issue 58's scenario, measured on a devnet of its own with a block and a PSM swap every 2 s,
 * twice: "before", the stack with the per-client limits and the readers' RPC budget turned off
 * (`--before-env`, by default limits-off.ts: KUSD_RATE_LIMIT=0 and budgets no load can spend), and "after",
 * the defaults (`--after-env` adds to them). In each:
 *   - a quiet window (`--quiet-seconds`, 30): a polite reader at 127.0.0.3 asks /api/por twice a
 *     second; nobody else reads;
 *   - a flood window (`--seconds`, 30): the same reader, and one client at 127.0.0.2 running
 *     `--loops` (32) loops that ask /api/por at distinct past blocks and whole CSV exports in turn
 *     (each answer read to its end, a refusal asked again at once).
 * Each client binds its own loopback address (an undici Agent with `localAddress`), so the API
 * sees three clients. Measured: the flooder's answers by status; the polite reader's p50/p99 in
 * both windows (their ratio is the figure); the indexed head's lag behind the chain (each block's
 * first sight on the chain's RPC to `/status` showing it, both asked every 50 ms from 127.0.0.4);
 * and the RPC calls of each window by purpose (kusd_rpc_calls_total), with the readers' calls
 * against their budget (kusd_reader_rpc_*). Goals for "after": the flood gets 429s, the polite
 * p99 under 2 × its quiet value, head lag p99 within one Base block (2 s), the readers' calls
 * within their budget. Not a test: it asserts nothing.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { Agent, fetch as agentFetch } from "undici";
import { rpcBlockNumber } from "../devnet/rpc.js";
import { startIndexer } from "../stack/indexer.js";
import { freePort } from "../test/helpers/ports.js";
import { benchDevnet } from "./bench-devnet.js";
import { swapEveryBlock } from "./block-cadence.js";
import { quantile } from "./latency.js";
import { envFromFlags, LIMITS_OFF } from "./limits-off.js";
import { parseSamples } from "./ponder-metrics.js";
import { atMost, type Figure, recordFigures } from "./results.js";

const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "30" },
    "quiet-seconds": { type: "string", default: "30" },
    loops: { type: "string", default: "32" },
    only: { type: "string", default: "before,after" },
    "before-env": {
      type: "string",
      multiple: true,
      default: Object.entries(LIMITS_OFF).map(([k, v]) => `${k}=${v}`),
    },
    "after-env": { type: "string", multiple: true, default: [] },
  },
});
const SECONDS = Number(values.seconds);
const QUIET_SECONDS = Number(values["quiet-seconds"]);
const LOOPS = Number(values.loops);
const ADDRESSES = { flooder: "127.0.0.2", polite: "127.0.0.3", observer: "127.0.0.4" } as const;
const HEAD_POLL_MS = 50;
const BASE_BLOCK_MS = 2_000;

const dir = mkdtempSync(join(tmpdir(), "kusd-bench-flood-"));
const deploymentFile = join(dir, "deployment.json");
process.env.DEVNET_DEPLOYMENT = deploymentFile;

/** A client at its own loopback address: undici's fetch through an Agent bound to it. */
function clientAt(localAddress: string, connections: number) {
  // `localAddress` on the Agent itself: undici 7 ignores it inside `connect` (its Client passes
  // its own, null, to the connector).
  const dispatcher = new Agent({ localAddress, connections });
  return {
    get: async (url: string) => {
      const t = performance.now();
      const res = await agentFetch(url, { dispatcher, headers: { "accept-encoding": "br" } });
      await res.arrayBuffer();
      return { status: res.status, ms: performance.now() - t };
    },
    text: async (url: string) => (await agentFetch(url, { dispatcher })).text(),
    close: () => dispatcher.close(),
  };
}

type Window = {
  polite: { p50: number; p99: number; statuses: Record<number, number> };
  lag: { p50: number; p99: number; max: number; blocks: number };
  /** Billed calls a second by purpose (kusd_rpc_calls_total). */
  rpcPerSecond: Record<string, number>;
  reader: { calls: number; refusals: number; ratePerSecond: number | null; burst: number | null } | null;
};

type PhaseResult = {
  phase: string;
  env: Record<string, string>;
  quiet: Window;
  flood: Window & { flooder: Record<number, number>; answers: number };
};

/** Counters of /metrics summed by one label, and the readers' budget gauges. */
async function scrape(observer: ReturnType<typeof clientAt>, url: string) {
  const samples = parseSamples(await observer.text(`${url}/metrics`));
  const byPurpose: Record<string, number> = {};
  for (const s of samples)
    if (s.name === "kusd_rpc_calls_total") byPurpose[s.labels.purpose!] = (byPurpose[s.labels.purpose!] ?? 0) + s.value;
  const one = (name: string) => samples.find((s) => s.name === name)?.value ?? null;
  return {
    byPurpose,
    readerCalls: one("kusd_reader_rpc_calls_total"),
    readerRefusals: one("kusd_reader_rpc_refusals_total"),
    readerRate: one("kusd_reader_rpc_budget_calls_per_second"),
    readerBurst: one("kusd_reader_rpc_budget_burst"),
  };
}

/**
 * Each block's lag from its first sight on the chain's RPC to `/status` showing it: both asked
 * every HEAD_POLL_MS, so a lag is exact to about that.
 */
function followHeadLag(rpcUrl: string, apiUrl: string, observer: ReturnType<typeof clientAt>) {
  const onChain = new Map<number, number>();
  const indexed = new Map<number, number>();
  let on = true;
  const poll = async (read: () => Promise<number | null>, seen: Map<number, number>) => {
    let last = -1;
    while (on) {
      const n = await read().catch(() => null);
      const at = performance.now();
      if (n !== null && n > last) {
        if (last >= 0) for (let b = last + 1; b <= n; b++) seen.set(b, at);
        last = n;
      }
      await new Promise((r) => setTimeout(r, HEAD_POLL_MS));
    }
  };
  const polls = [
    poll(() => rpcBlockNumber(rpcUrl), onChain),
    poll(async () => {
      const s = JSON.parse(await observer.text(`${apiUrl}/status`)) as { base?: { block?: { number: number } } };
      return s.base?.block?.number ?? null;
    }, indexed),
  ];
  return {
    /** Lags of the blocks first seen on the chain between `from` and `to` (performance.now()). */
    lags(from: number, to: number): number[] {
      const out: number[] = [];
      for (const [b, t] of onChain) {
        if (t < from || t >= to) continue;
        const i = indexed.get(b);
        // A block not yet on /status when the window was read: its lag is at least that long.
        out.push((i ?? performance.now()) - t);
      }
      return out;
    },
    async stop() {
      on = false;
      await Promise.all(polls);
    },
  };
}

async function runPhase(
  phase: string,
  env: Record<string, string>,
  d: Awaited<ReturnType<typeof benchDevnet>>["deployment"],
): Promise<PhaseResult> {
  console.log(
    `\n===== ${phase}: ${
      Object.entries(env)
        .map(([k, v]) => `${k}=${v}`)
        .join(" ") || "the defaults"
    } =====`,
  );
  const indexer = await startIndexer({
    port: await freePort(),
    deploymentFile,
    pgliteDir: join(dir, `pglite-${phase}`),
    viewsSchema: `bench_flood_${phase}_views`,
    env: { KUSD_STORE_DIR: join(dir, `store-${phase}`), ...env },
  });
  const url = indexer.url;
  const rpcUrl = d.chains.base.rpcUrl;
  const polite = clientAt(ADDRESSES.polite, 2);
  const flooder = clientAt(ADDRESSES.flooder, LOOPS);
  const observer = clientAt(ADDRESSES.observer, 4);
  let cadence: Awaited<ReturnType<typeof swapEveryBlock>> | null = null;
  let lag: ReturnType<typeof followHeadLag> | null = null;
  try {
    await indexer.waitForBlock("base", await rpcBlockNumber(rpcUrl), 300_000);
    // The first signed statement and the indexer's catch-up finish before anything is measured.
    await observer.text(`${url}/api/por/signed`);
    await new Promise((r) => setTimeout(r, 5_000));
    cadence = await swapEveryBlock(d);
    lag = followHeadLag(rpcUrl, url, observer);
    await new Promise((r) => setTimeout(r, 4_000));

    /** The polite reader: /api/por twice a second, each ask on time whatever the last one's fate. */
    const politeReader = () => {
      const ms: number[] = [];
      const statuses: Record<number, number> = {};
      const pending: Promise<void>[] = [];
      const timer = setInterval(() => {
        pending.push(
          polite.get(`${url}/api/por`).then(
            (r) => {
              ms.push(r.ms);
              statuses[r.status] = (statuses[r.status] ?? 0) + 1;
            },
            () => {
              statuses[0] = (statuses[0] ?? 0) + 1;
            },
          ),
        );
      }, 500);
      return async () => {
        clearInterval(timer);
        await Promise.all(pending);
        return { p50: quantile(ms, 0.5), p99: quantile(ms, 0.99), statuses };
      };
    };

    const windowOf = async (seconds: number, during: () => Promise<void>) => {
      const before = await scrape(observer, url);
      const from = performance.now();
      const stopPolite = politeReader();
      await during();
      await new Promise((r) => setTimeout(r, Math.max(0, from + seconds * 1000 - performance.now())));
      const politeResult = await stopPolite();
      const to = performance.now();
      // Blocks mined in the window get one more block's time to show on /status.
      await new Promise((r) => setTimeout(r, BASE_BLOCK_MS));
      const after = await scrape(observer, url);
      const elapsed = (to - from) / 1000;
      const lags = lag!.lags(from, to);
      const rpcPerSecond = Object.fromEntries(
        Object.keys(after.byPurpose).map((p) => [
          p,
          ((after.byPurpose[p] ?? 0) - (before.byPurpose[p] ?? 0)) / elapsed,
        ]),
      );
      return {
        polite: politeResult,
        lag: { p50: quantile(lags, 0.5), p99: quantile(lags, 0.99), max: Math.max(...lags), blocks: lags.length },
        rpcPerSecond,
        reader:
          after.readerCalls === null
            ? null
            : {
                calls: after.readerCalls - (before.readerCalls ?? 0),
                refusals: (after.readerRefusals ?? 0) - (before.readerRefusals ?? 0),
                ratePerSecond: after.readerRate,
                burst: after.readerBurst,
              },
      } satisfies Window;
    };

    console.log(`quiet window, ${QUIET_SECONDS} s ...`);
    const quiet = await windowOf(QUIET_SECONDS, async () => {});

    console.log(`flood window, ${SECONDS} s, ${LOOPS} loops ...`);
    const flooderStatuses: Record<number, number> = {};
    let answers = 0;
    const firstBlock = d.chains.base.contracts.kUSD!.block;
    const head = await rpcBlockNumber(rpcUrl);
    // Distinct past blocks, spread over the history, shared by every loop.
    let next = 0;
    const distinctBlock = () => firstBlock + ((next++ * 7919) % (head - 64 - firstBlock));
    const flood = await windowOf(SECONDS, async () => {
      const until = performance.now() + SECONDS * 1000;
      await Promise.all(
        Array.from({ length: LOOPS }, async (_, loop) => {
          for (let i = loop; performance.now() < until; i++) {
            const path =
              i % 2 === 0 ? `/api/por?block=${distinctBlock()}` : `/api/export/psmSwaps.csv?toBlock=${distinctBlock()}`;
            const status = await flooder.get(`${url}${path}`).then(
              (r) => r.status,
              () => 0,
            );
            flooderStatuses[status] = (flooderStatuses[status] ?? 0) + 1;
            answers++;
          }
        }),
      );
    });
    return { phase, env, quiet, flood: { ...flood, flooder: flooderStatuses, answers } };
  } finally {
    await lag?.stop();
    await cadence?.stop().catch(() => {});
    await Promise.all([polite.close(), flooder.close(), observer.close()]);
    await indexer.stop();
  }
}

function report(results: PhaseResult[]) {
  const f0 = (x: number) => (Number.isFinite(x) ? x.toFixed(0) : "n/a");
  const statuses = (s: Record<number, number>) =>
    Object.entries(s)
      .map(([k, n]) => `${k === "0" ? "no answer" : k}: ${n}`)
      .join(", ");
  const rpc = (w: Window) =>
    Object.entries(w.rpcPerSecond)
      .filter(([, v]) => v > 0)
      .sort((a, b) => b[1] - a[1])
      .map(([p, v]) => `${p} ${v.toFixed(1)}`)
      .join(", ");
  const total = (w: Window) => Object.values(w.rpcPerSecond).reduce((a, b) => a + b, 0);
  const rows: [string, (r: PhaseResult) => string][] = [
    [`flooder's answers in ${SECONDS} s, by status`, (r) => `${r.flood.answers} (${statuses(r.flood.flooder)})`],
    ["polite reader, quiet: p50 / p99 ms", (r) => `${f0(r.quiet.polite.p50)} / ${f0(r.quiet.polite.p99)}`],
    ["polite reader, flooded: p50 / p99 ms", (r) => `${f0(r.flood.polite.p50)} / ${f0(r.flood.polite.p99)}`],
    ["polite reader, flooded: statuses", (r) => statuses(r.flood.polite.statuses)],
    ["polite p99 flooded / quiet", (r) => `${(r.flood.polite.p99 / r.quiet.polite.p99).toFixed(2)} ×`],
    [
      "head lag, quiet: p50 / p99 / max ms (blocks)",
      (r) => `${f0(r.quiet.lag.p50)} / ${f0(r.quiet.lag.p99)} / ${f0(r.quiet.lag.max)} (${r.quiet.lag.blocks})`,
    ],
    [
      "head lag, flooded: p50 / p99 / max ms (blocks)",
      (r) => `${f0(r.flood.lag.p50)} / ${f0(r.flood.lag.p99)} / ${f0(r.flood.lag.max)} (${r.flood.lag.blocks})`,
    ],
    ["billed RPC calls/s, quiet", (r) => `${total(r.quiet).toFixed(1)} (${rpc(r.quiet)})`],
    ["billed RPC calls/s, flooded", (r) => `${total(r.flood).toFixed(1)} (${rpc(r.flood)})`],
    [
      "readers' calls in the flood (budget: rate × s + burst), refusals",
      (r) =>
        r.flood.reader
          ? `${r.flood.reader.calls} (${r.flood.reader.ratePerSecond} × ${SECONDS} + ${r.flood.reader.burst} = ${(r.flood.reader.ratePerSecond ?? 0) * SECONDS + (r.flood.reader.burst ?? 0)}), ${r.flood.reader.refusals} refused`
          : "not on /metrics",
    ],
  ];
  console.log(`\n| figure | ${results.map((r) => r.phase).join(" | ")} |`);
  console.log(`|---|${results.map(() => "---").join("|")}|`);
  for (const [name, cell] of rows) console.log(`| ${name} | ${results.map(cell).join(" | ")} |`);

  const after = results.find((r) => r.phase === "after");
  if (!after) return;
  const got429 = after.flood.flooder[429] ?? 0;
  const ratio = after.flood.polite.p99 / after.quiet.polite.p99;
  const reader = after.flood.reader;
  const allowance = reader ? (reader.ratePerSecond ?? 0) * SECONDS + (reader.burst ?? 0) : Number.NaN;
  const flood5xx = Object.entries(after.flood.flooder)
    .filter(([s]) => Number(s) >= 500 && Number(s) !== 503)
    .reduce((a, [, n]) => a + n, 0);
  const yes = (ok: boolean) => (ok ? "yes" : "**no**");
  console.log("\n| goal (after) | value | target | holds |\n|---|---:|---|---|");
  console.log(`| the flood gets 429s | ${got429} | > 0 | ${yes(got429 > 0)} |`);
  console.log(`| polite p99 flooded / quiet | ${ratio.toFixed(2)} × | < 2 × | ${yes(ratio < 2)} |`);
  console.log(
    `| head lag p99, flooded | ${f0(after.flood.lag.p99)} ms | ≤ ${BASE_BLOCK_MS} ms | ${yes(after.flood.lag.p99 <= BASE_BLOCK_MS)} |`,
  );
  console.log(
    `| readers' RPC calls in the flood | ${reader?.calls ?? "n/a"} | ≤ ${f0(allowance)} | ${reader ? yes(reader.calls <= allowance) : "n/a"} |`,
  );
  console.log(`| flooder's 5xx other than the budget's 503 | ${flood5xx} | 0 | ${yes(flood5xx === 0)} |`);
  const before = results.find((r) => r.phase === "before");
  const figures: Figure[] = [
    {
      figure: `flood of ${LOOPS} loops, ${SECONDS} s: polite /api/por p99`,
      value: after.flood.polite.p99,
      unit: "ms",
      baseline: { name: "the same reader with no flood", value: after.quiet.polite.p99 },
      target: "< 2 ×",
      holds: ratio < 2,
    },
    {
      figure: `flood of ${LOOPS} loops, ${SECONDS} s: head lag p99`,
      value: after.flood.lag.p99,
      unit: "ms",
      ...(before && { baseline: { name: "limits off", value: before.flood.lag.p99 } }),
      ...atMost(after.flood.lag.p99, BASE_BLOCK_MS, "ms"),
    },
    {
      figure: `flood of ${LOOPS} loops, ${SECONDS} s: the flooder's 429 answers`,
      value: got429,
      unit: "",
      target: "> 0",
      holds: got429 > 0,
    },
  ];
  if (reader)
    figures.push({
      figure: `flood of ${LOOPS} loops, ${SECONDS} s: readers' RPC calls`,
      value: reader.calls,
      unit: "calls",
      ...atMost(reader.calls, allowance, "calls"),
    });
  recordFigures("flood", figures);
}

async function main() {
  const devnet = await benchDevnet({ scale: 1, file: deploymentFile });
  try {
    const results: PhaseResult[] = [];
    const phases = values.only.split(",");
    if (phases.includes("before"))
      results.push(await runPhase("before", envFromFlags(values["before-env"]), devnet.deployment));
    if (phases.includes("after"))
      results.push(await runPhase("after", envFromFlags(values["after-env"]), devnet.deployment));
    report(results);
  } finally {
    await devnet.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
