/**
 * The monitor against the running devnet: a violation made live reaches a local webhook
 * receiver (signed, within 2 blocks), a reorg that removes it produces a retraction, a restart
 * resumes without repeats, and an alert a failing receiver did not take stays in the outbox
 * (--once exits 3) until the next run delivers it.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseEther } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { weth9Abi } from "../../abis/index.js";
import { devnetKey } from "../../devnet/keys.js";
import {
  DELIVERY_HEADER,
  type MonitorOptions,
  runMonitor,
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
  verifyWebhook,
} from "../../packages/monitor/src/index.js";

// Every state directory this file makes is removed when it ends.
const tempDirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "kusd-monitor-"));
  tempDirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

import { stack } from "../helpers/stack.js";

const s = stack();
const d = s.deployment;
const SECRET = "test-webhook-secret";
type Received = { body: any; delivery: string; signed: boolean; headAtReceipt: number };

let server: Server;
let webhookUrl = "";
let failing = false;
const received: Received[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", async () => {
      if (failing) return res.writeHead(500).end();
      const signed = verifyWebhook(
        SECRET,
        { signature: req.headers[SIGNATURE_HEADER] as string, timestamp: req.headers[TIMESTAMP_HEADER] as string },
        body,
      );
      received.push({
        body: JSON.parse(body),
        delivery: String(req.headers[DELIVERY_HEADER]),
        signed,
        headAtReceipt: Number(await s.client.getBlockNumber({ cacheTime: 0 })),
      });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  webhookUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const options = (statePath: string, over: Partial<MonitorOptions> = {}): MonitorOptions => ({
  apiUrl: s.indexerUrl,
  kinds: ["violation"],
  redemptionMinKusd: "0",
  confirmations: 0,
  reorgWindow: 64,
  pollMs: 200,
  statePath,
  stdout: false,
  webhooks: [webhookUrl],
  secret: SECRET,
  baseDelayMs: 20,
  fromBlock: "head",
  once: false,
  ...over,
});

/** The watch-only founder float sends WETH to an address no registry lists: a violation. */
async function violate(amount = "0.01") {
  const wallet = s.wallet(d.accounts.hedgeWatchOnly!.privateKey);
  const hash = await wallet.writeContract({
    address: s.addr("weth"),
    abi: weth9Abi,
    functionName: "transfer",
    args: [devnetKey(`test:stranger:${Date.now()}`).address, parseEther(amount)],
  });
  return s.client.waitForTransactionReceipt({ hash });
}

const until = async (cond: () => boolean, ms: number, tick?: () => Promise<unknown>) => {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await tick?.();
    await new Promise((r) => setTimeout(r, 250));
  }
};

describe("kusd-monitor", () => {
  it("alerts a live violation within 2 blocks, signed, and retracts it when a reorg removes it", async () => {
    const dir = tempDir();
    await s.caughtUp();
    const controller = new AbortController();
    const lines: string[] = [];
    const running = runMonitor(options(join(dir, "state.json")), {
      write: (l) => lines.push(l),
      signal: controller.signal,
    });
    await new Promise((r) => setTimeout(r, 500)); // the monitor has taken the head as its start

    const snapshot = await s.client.request({ method: "evm_snapshot" as never });
    // 1,000 wei: a float in units would be 1e-15.
    const receipt = await violate("0.000000000000001");
    const v = Number(receipt.blockNumber);
    // Other activity keeps making blocks, one a second; the alert must land before block v + 2.
    let mined = 0;
    await until(
      () => received.some((r) => r.body.txHash === receipt.transactionHash),
      20_000,
      async () => {
        if (mined < 2) {
          await s.client.request({ method: "evm_mine" as never });
          mined++;
        }
      },
    );
    const alert = received.find((r) => r.body.txHash === receipt.transactionHash)!;
    expect(alert.signed).toBe(true);
    expect(alert.body).toMatchObject({
      type: "alert",
      kind: "violation",
      tokenSymbol: "WETH",
      from: d.accounts.hedgeWatchOnly!.address,
      // The amount in units as an exact decimal string, beside the raw integer.
      amount: "0.000000000000001",
      amountRaw: "1000",
    });
    expect(alert.headAtReceipt).toBeLessThanOrEqual(v + 2);
    expect(alert.delivery).toBe(`alert:violation:${alert.body.id}`);

    // The block with the violation is replaced by a longer fork without it.
    await s.client.request({ method: "evm_revert" as never, params: [snapshot] as never });
    for (let i = 0; i < 4; i++) await s.client.request({ method: "evm_mine" as never });
    await until(() => received.some((r) => r.body.type === "retraction" && r.body.id === alert.body.id), 30_000);
    const retraction = received.find((r) => r.body.type === "retraction" && r.body.id === alert.body.id)!;
    expect(retraction.signed).toBe(true);
    expect(retraction.body.retracted.txHash).toBe(receipt.transactionHash);
    controller.abort();
    expect(await running).toBe(0);
    expect(lines.filter((l) => l.includes('"type":"error"'))).toEqual([]);
  });

  it("resumes from its state after a restart: nothing missed, nothing repeated", async () => {
    const state = join(tempDir(), "state.json");
    await s.caughtUp();
    const first = await violate();
    await s.indexedThrough(first.blockNumber);
    // First run starts at the head: the violation already there is old news.
    expect(await runMonitor(options(state, { once: true }), { write: () => {} })).toBe(0);
    expect(received.filter((r) => r.body.txHash === first.transactionHash)).toHaveLength(0);
    // While it is stopped, a new violation happens; the restart delivers it once.
    const second = await violate();
    await s.indexedThrough(second.blockNumber);
    expect(await runMonitor(options(state, { once: true }), { write: () => {} })).toBe(0);
    expect(await runMonitor(options(state, { once: true }), { write: () => {} })).toBe(0);
    expect(received.filter((r) => r.body.txHash === second.transactionHash && r.body.type === "alert")).toHaveLength(1);
  });

  it("prints JSON lines on stdout; with --once, exits 3 while a webhook has the alert queued, and the next run delivers it once", async () => {
    const state = join(tempDir(), "state.json");
    await s.caughtUp();
    expect(await runMonitor(options(state, { once: true }), { write: () => {} })).toBe(0);
    const tx = await violate();
    await s.indexedThrough(tx.blockNumber);
    failing = true;
    const lines: string[] = [];
    try {
      expect(
        await runMonitor(options(state, { once: true, stdout: true }), {
          write: (l) => lines.push(l),
          sleep: async () => {},
        }),
      ).toBe(3);
    } finally {
      failing = false;
    }
    expect(lines.some((l) => JSON.parse(l).txHash === tx.transactionHash)).toBe(true);
    // Delivered on the next run, once the receiver is back.
    expect(await runMonitor(options(state, { once: true }), { write: () => {} })).toBe(0);
    expect(received.filter((r) => r.body.txHash === tx.transactionHash)).toHaveLength(1);
  });
});
