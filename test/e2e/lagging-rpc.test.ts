/**
 * A lagging RPC is not a reorg (issue 41): for 20 s, every other second, the indexer's RPC answers
 * as a node five blocks behind (the fault proxy's lag: an older head, blocks above it not found),
 * as a load-balanced provider does when one backend lags, while redemptions arrive. `/status`
 * and the report at the head never go backwards, no stream retracts a swap, Ponder logs no reorg,
 * and afterwards every table equals the shared indexer's, which read the chain directly.
 */
import { maxUint256, parseEther } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kusdAbi, kusdpsmAbi } from "../../abis/index.js";
import { type RpcProxy, startRpcProxy } from "../../devnet/rpc-proxy.js";
import { sseSubscriptions } from "../helpers/graphql-streams.js";
import { checksumsAtOneHead, ownIndexers } from "../helpers/own-indexer.js";
import { stack } from "../helpers/stack.js";

const LAG_MS = 20_000;
const LAG = { blocks: 5, everyOtherMs: 1_000 };
const s = stack();
const own = ownIndexers("lag");
let proxy: RpcProxy;
beforeAll(async () => {
  proxy = await startRpcProxy({ upstream: s.rpcUrl });
});
afterAll(async () => {
  await own.cleanup();
  await proxy?.stop();
});

/** The block numbers a reader saw, in order, and each step that went down. */
function sampler(read: () => Promise<number | null>) {
  const seen: number[] = [];
  let on = true;
  const done = (async () => {
    while (on) {
      const n = await read().catch(() => null);
      if (n !== null) seen.push(n);
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  return {
    seen,
    backwards: () => seen.flatMap((n, i) => (i > 0 && n < seen[i - 1]! ? [`${seen[i - 1]} → ${n}`] : [])),
    stop: async () => {
      on = false;
      await done;
    },
  };
}

// PGlite only: this is Ponder's realtime sync against its RPC, not the database.
describe.skipIf(Boolean(process.env.DATABASE_URL))("a lagging RPC", () => {
  it("is not taken for a reorg: nothing goes backwards, nothing is retracted, every row equals the chain", async () => {
    let output = "";
    const lagging = await own.start("lagging", {
      env: { PONDER_RPC_URL_8453: proxy.url },
      onOutput: (line) => {
        output += `${line}\n`;
      },
    });
    const url = lagging.indexer.url;
    const start = await s.caughtUp();
    await lagging.indexer.waitForBlock("base", start);
    const sse = await sseSubscriptions(`${url}/graphql`, {
      swaps: {
        query: `subscription($from: BigInt) { psmSwaps(fromBlock: $from) { kind swap { id blockNumber } } }`,
        variables: { from: String(start + 1) },
        field: "psmSwaps",
      },
    });
    const status = sampler(async () => {
      const body = (await (await fetch(`${url}/status`)).json()) as { base?: { block?: { number: number } } };
      return body.base?.block?.number ?? null;
    });
    const report = sampler(async () => {
      const res = await fetch(`${url}/api/stats`);
      return res.ok ? ((await res.json()) as { blockNumber: number }).blockNumber : null;
    });

    const operator = s.wallet(s.deployment.accounts.operator!.privateKey);
    const psm = s.addr("psmMint");
    const approve = await operator.writeContract({
      address: s.addr("kUSD"),
      abi: kusdAbi,
      functionName: "approve",
      args: [psm, maxUint256],
    });
    await s.client.waitForTransactionReceipt({ hash: approve });
    proxy.setLag(LAG);
    const swaps: string[] = [];
    const until = Date.now() + LAG_MS;
    while (Date.now() < until) {
      const hash = await operator.writeContract({
        address: psm,
        abi: kusdpsmAbi,
        functionName: "swapKUSDForStable",
        args: [s.addr("usdc"), parseEther("1")],
      });
      const receipt = await s.client.waitForTransactionReceipt({ hash });
      expect(receipt.status).toBe("success");
      swaps.push(hash);
      await new Promise((r) => setTimeout(r, 400));
    }
    proxy.setLag(null);
    const head = await s.caughtUp();
    await lagging.indexer.waitForBlock("base", head);
    await new Promise((r) => setTimeout(r, 1_500)); // a last poll of the stream and the samplers
    await Promise.all([status.stop(), report.stop()]);
    sse.close();

    const lagged = proxy.stats().lagged;
    const items = sse.streams.swaps!.items as { kind: string; swap: { id: string } }[];
    const detected = items.filter((i) => i.kind === "DETECTED").length;
    const retracted = items.filter((i) => i.kind === "RETRACTED").length;
    console.log(
      `[lag] ${swaps.length} redemptions in ${LAG_MS / 1000} s, ${lagged} calls answered ${LAG.blocks} blocks behind; /status sampled ${status.seen.length} times (${status.seen[0]}…${status.seen.at(-1)}), backwards ${status.backwards().length}; /api/stats ${report.seen.length} times, backwards ${report.backwards().length}; stream: ${detected} DETECTED, ${retracted} RETRACTED`,
    );
    expect(lagged, "the proxy answered as a lagging node").toBeGreaterThan(0);
    expect(swaps.length).toBeGreaterThanOrEqual(10);
    expect(status.backwards(), "/status went backwards").toEqual([]);
    expect(report.backwards(), "/api/stats went backwards").toEqual([]);
    // The shared devnet can mine past `head` meanwhile (the stack anchors its statements on Base):
    // the last /status is the head or a later block, never one the chain does not have.
    expect(status.seen.at(-1)).toBeGreaterThanOrEqual(head);
    expect(status.seen.at(-1)).toBeLessThanOrEqual(Number(await s.client.getBlockNumber()));
    expect(output).not.toMatch(/Reorged block|Detected reorg/);
    expect(retracted).toBe(0);
    expect(detected).toBe(swaps.length);
    // The stack's own indexer follows the same chain: both compared at one head (checksumsAtOneHead).
    const stackIndexer = {
      db: s.db,
      indexer: { waitForBlock: (_: string, block: number) => s.indexedThrough(block, 60_000) },
    };
    const [ours, direct] = await checksumsAtOneHead(
      () => s.client.getBlockNumber({ cacheTime: 0 }),
      lagging,
      stackIndexer,
    );
    expect(ours).toEqual(direct);
  }, 300_000);
});
