/**
 * `npm run bench:paid [-- --requests N --concurrency N]`: what x402 adds. In one run on the
 * devnet: the signed attestation fetched free (GET /api/por/signed) and bought (GET
 * /paid/reserves, verify + on-chain settlement through the in-process facilitator), each
 * sequentially (p50/p99 latency) and concurrently (requests per second). Prints both and the
 * latency x402 adds. Not a test: it asserts nothing.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createPublicClient, createWalletClient, type Hex, http, parseUnits } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { fiatTokenV2Abi } from "../abis/index.js";
import { devnetChain } from "../devnet/chains.js";
import { startDevnet } from "../devnet/devnet.js";
import { devnetKey } from "../devnet/keys.js";
import { payingFetch } from "../packages/buy/src/index.js";
import { startIndexer } from "../stack/indexer.js";
import { freePort } from "../test/helpers/ports.js";
import { atMost, recordFigures } from "./results.js";

const { values } = parseArgs({
  options: { requests: { type: "string", default: "200" }, concurrency: { type: "string", default: "20" } },
});
const requests = Number(values.requests);
const concurrency = Number(values.concurrency);
const dir = mkdtempSync(join(tmpdir(), "kusd-bench-paid-"));
const deploymentFile = join(dir, "deployment.json");
process.env.DEVNET_DEPLOYMENT = deploymentFile;

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function measure(call: (worker: number) => Promise<void>) {
  for (let i = 0; i < 3; i++) await call(0); // warm-up
  const latencies: number[] = [];
  for (let i = 0; i < requests; i++) {
    const t = performance.now();
    await call(0);
    latencies.push(performance.now() - t);
  }
  latencies.sort((a, b) => a - b);
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async (_, w) => {
      while (next++ < requests) await call(w);
    }),
  );
  return { p50: pct(latencies, 50), p99: pct(latencies, 99), rps: requests / ((performance.now() - started) / 1000) };
}

async function main() {
  const devnet = await startDevnet({
    ports: { base: await freePort(), ethereum: await freePort(), venue: await freePort() },
    deploymentFile,
    reuse: false,
  });
  const indexer = await startIndexer({
    port: await freePort(),
    deploymentFile,
    pgliteDir: join(dir, "pglite"),
    viewsSchema: "bench_paid_views",
    env: { KUSD_STORE_DIR: join(dir, "store") },
  });
  try {
    const d = devnet.deployment;
    await indexer.waitForBlock("base", d.chains.base.historyEndBlock + 40, 300_000);
    const chain = devnetChain(8453, d.chains.base.rpcUrl);
    const client = createPublicClient({ chain, transport: http(d.chains.base.rpcUrl), pollingInterval: 50 });
    const circle = createWalletClient({
      account: privateKeyToAccount(d.accounts.circle!.privateKey),
      chain,
      transport: http(d.chains.base.rpcUrl),
    });
    const usdc = d.chains.base.contracts.usdc!.address;
    const agents: Hex[] = [];
    for (let w = 0; w < concurrency; w++) {
      const a = devnetKey(`bench:paid:${w}`);
      await client.waitForTransactionReceipt({
        hash: await circle.writeContract({
          address: usdc,
          abi: fiatTokenV2Abi,
          functionName: "mint",
          args: [a.address, parseUnits("1000", 6)],
        }),
      });
      agents.push(a.privateKey);
    }
    const limit = { network: "eip155:8453" as const, asset: usdc, maxAmount: 250_000n };
    const payers = agents.map((k) => payingFetch(k, limit));
    const get = async (f: typeof fetch, url: string) => {
      const res = await f(url);
      await res.text();
      if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
    };
    await get(fetch, `${indexer.url}/api/por/signed`); // the first statement is issued on demand
    const free = await measure(() => get(fetch, `${indexer.url}/api/por/signed`));
    const recipient = d.payments.recipient as `0x${string}`;
    const balance = () =>
      client.readContract({
        address: usdc,
        abi: fiatTokenV2Abi,
        functionName: "balanceOf",
        args: [recipient],
      }) as Promise<bigint>;
    const before = await balance();
    const paid = await measure((w) => get(payers[w]!, `${indexer.url}/paid/reserves`));
    // Every paid request answered 200 (get throws otherwise), so each must have moved exactly the price once.
    const answered = BigInt(3 + 2 * requests);
    const moved = (await balance()) - before;
    const row = (n: string, m: typeof free) =>
      `${n.padEnd(28)} p50 ${m.p50.toFixed(1).padStart(7)} ms  p99 ${m.p99.toFixed(1).padStart(7)} ms  ${m.rps.toFixed(1).padStart(7)} req/s`;
    console.log(
      `\n${requests} requests sequential (latency), ${concurrency} concurrent payers (throughput), devnet on anvil`,
    );
    console.log(row("free  GET /api/por/signed", free));
    console.log(row("paid  GET /paid/reserves", paid));
    console.log(
      `x402 adds (402 round trip + verify + settle): p50 +${(paid.p50 - free.p50).toFixed(1)} ms (paid/free ${(paid.p50 / free.p50).toFixed(2)}), p99 +${(paid.p99 - free.p99).toFixed(1)} ms; throughput ratio paid/free ${(paid.rps / free.rps).toFixed(3)}`,
    );
    const double = moved > answered * 250_000n ? (moved - answered * 250_000n) / 250_000n : 0n;
    const lost = moved < answered * 250_000n ? (answered * 250_000n - moved) / 250_000n : 0n;
    console.log(
      `settlements: ${answered} paid answers, recipient received ${moved} (${answered * 250_000n}); double charges ${double}, lost ${lost}`,
    );
    recordFigures("paid", [
      {
        figure: `paid GET /paid/reserves, ${concurrency} payers: settled req/s`,
        value: paid.rps,
        unit: "req/s",
        target: "≥ 50 req/s",
        holds: paid.rps >= 50,
      },
      {
        figure: "paid GET /paid/reserves p50 (one payer, 402 round trip + verify + settle)",
        value: paid.p50,
        unit: "ms",
        baseline: { name: "free GET /api/por/signed p50", value: free.p50 },
        ...atMost(paid.p50 / free.p50, 2, "× free"),
      },
      {
        figure: `double charges + lost settlements over ${answered} paid answers`,
        value: Number(double + lost),
        unit: "",
        ...atMost(Number(double + lost), 0, ""),
      },
    ]);
  } finally {
    await indexer.stop();
    await devnet.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
