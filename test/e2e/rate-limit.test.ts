/**
 * Per-client limits (issue 58, items 1 and 3) on the devnet, with real processes and clients on
 * distinct loopback addresses (undici Agents bound to a local address). The test stack runs the
 * default budget and exempts 127.0.0.1, from which every other file calls: these clients are
 * 127.0.0.2 and up. A flood of past-block reports and whole exports from one address is refused
 * 429 with Retry-After and the RateLimit fields, having spent exactly its budget by the published
 * costs, while another address is served throughout; a paid request goes through from the
 * flooded address; on PostgreSQL, the indexer's API and a read replica keep one limit: a flood
 * split over both runs out at the same total. Redis keeps one limit for two stores as well.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { decodePaymentRequiredHeader } from "@x402/core/http";
import { Agent, type RequestInit as UndiciRequestInit, fetch as undiciFetch } from "undici";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { DEFAULT_POINTS, DEFAULT_WINDOW_SECONDS } from "../../api/http/rate-limit/configured.js";
import { COSTS } from "../../api/http/rate-limit/cost-table.js";
import { openRateLimitStore } from "../../api/http/rate-limit/store.js";
import { fundedAgent, paymentHeader } from "../helpers/payment.js";
import { freePort } from "../helpers/ports.js";
import { stack } from "../helpers/stack.js";

const s = stack();
const END = s.deployment.chains.base.historyEndBlock;
const POLICY = `"free";q=${DEFAULT_POINTS};w=${DEFAULT_WINDOW_SECONDS}`;
/** Past blocks of the scripted history: a few, so the flood's snapshots are built once and it stays quick. */
const PAST_BLOCKS = Array.from({ length: 6 }, (_, i) => END - 10 - i);

const agents: Agent[] = [];
const children: ChildProcess[] = [];
afterAll(async () => {
  await Promise.all(agents.map((a) => a.close()));
  await Promise.all(
    children.map(
      (c) =>
        new Promise<void>((r) => {
          if (c.exitCode !== null || c.signalCode !== null) return r();
          c.once("exit", () => r());
          c.kill("SIGTERM");
          setTimeout(() => c.kill("SIGKILL"), 5_000).unref();
        }),
    ),
  );
});

type Answer = { status: number; headers: Headers; body: string };

/** Requests from one loopback address, each answer read whole. */
function client(localAddress: string) {
  // The Client's own option: undici 7 sets the socket's local address from it, not from `connect`.
  const dispatcher = new Agent({ localAddress });
  agents.push(dispatcher);
  return async (url: string, init: UndiciRequestInit = {}): Promise<Answer> => {
    const res = await undiciFetch(url, { ...init, dispatcher });
    return { status: res.status, headers: res.headers as unknown as Headers, body: await res.text() };
  };
}

/** What the flood asks, and what each costs by the published table. */
const floodTarget = (i: number) =>
  i % 4 === 3
    ? { path: "/api/export/psmSwaps.csv", points: COSTS.export_whole.points }
    : { path: `/api/por?block=${PAST_BLOCKS[i % PAST_BLOCKS.length]}`, points: COSTS.past_block.points };

/**
 * 8 loops of past-block reports and whole exports from `from`, spread over `apis` in turn, until
 * every loop has been refused; the points of the answers served, by the table, and every answer.
 */
async function flood(from: ReturnType<typeof client>, apis: string[]) {
  const answers: Array<Answer & { api: string; points: number }> = [];
  await Promise.all(
    Array.from({ length: 8 }, async (_, loop) => {
      for (let i = loop; i < 400; i += 8) {
        const target = floodTarget(i);
        const api = apis[i % apis.length]!;
        const answer = await from(`${api}${target.path}`);
        answers.push({ ...answer, api, points: target.points });
        if (answer.status === 429) return;
        expect(answer.status, answer.body.slice(0, 300)).toBe(200);
      }
      throw new Error("the flood was never refused");
    }),
  );
  const spent = answers.filter((a) => a.status === 200).reduce((sum, a) => sum + a.points, 0);
  return { answers, spent, refused: answers.filter((a) => a.status === 429) };
}

/** A refusal as the limits answer it: 429 rate_limited, Retry-After the RateLimit's t, the policy. */
function expectRefusal(a: Answer) {
  expect(a.status).toBe(429);
  const retryAfter = Number(a.headers.get("Retry-After"));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(DEFAULT_WINDOW_SECONDS);
  expect(a.headers.get("RateLimit")).toBe(`"free";r=0;t=${retryAfter}`);
  expect(a.headers.get("RateLimit-Policy")).toBe(POLICY);
  expect(a.headers.get("Content-Type")).toMatch(/^application\/json/);
  const body = JSON.parse(a.body) as { error: { code: string; details: Record<string, number> } };
  expect(body.error.code).toBe("rate_limited");
  expect(body.error.details).toMatchObject({
    retryAfterSeconds: retryAfter,
    budget: DEFAULT_POINTS,
    windowSeconds: DEFAULT_WINDOW_SECONDS,
  });
}

/** The budget was spent to within the dearest request of the flood, never past it. */
function expectSpent(spent: number) {
  expect(spent).toBeLessThanOrEqual(DEFAULT_POINTS);
  expect(spent).toBeGreaterThan(DEFAULT_POINTS - COSTS.export_whole.points);
}

async function refusalsCounted(api: string): Promise<number> {
  const text = await (await fetch(`${api}/metrics`)).text();
  return text
    .split("\n")
    .filter((l) => /^kusd_rate_limited_total\{route="(past_block|export_whole)"\}/.test(l))
    .reduce((sum, l) => sum + Number(l.split(" ")[1]), 0);
}

beforeAll(async () => {
  await s.caughtUp();
  // The flood's past blocks built once beforehand (from the exempt address), so it measures the limits, not snapshots.
  await Promise.all(PAST_BLOCKS.map((b) => fetch(`${s.indexerUrl}/api/por?block=${b}`).then((r) => r.arrayBuffer())));
});

describe("per-client limits on one API process", () => {
  const flooder = client("127.0.0.2");
  const reader = client("127.0.0.3");

  it("refuse a flood from one address 429 once its budget is spent, while another address is served", async () => {
    const refusalsBefore = await refusalsCounted(s.indexerUrl);
    let flooding = true;
    const polite: Answer[] = [];
    const politeReader = (async () => {
      while (flooding) {
        polite.push(await reader(`${s.indexerUrl}/api/por`));
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    const f = await flood(flooder, [s.indexerUrl]).finally(() => {
      flooding = false;
    });
    await politeReader;

    expectSpent(f.spent);
    expect(f.refused.length).toBe(8);
    for (const a of f.refused) expectRefusal(a);
    // Each served answer said what was left of the budget.
    for (const a of f.answers.filter((x) => x.status === 200)) {
      expect(a.headers.get("RateLimit-Policy")).toBe(POLICY);
      expect(a.headers.get("RateLimit")).toMatch(/^"free";r=\d+;t=\d+$/);
    }
    expect(polite.length).toBeGreaterThan(0);
    for (const a of polite) {
      expect(a.status).toBe(200);
      expect(a.headers.get("RateLimit")).toMatch(/^"free";r=\d+;t=\d+$/);
    }
    // The polite reader spent a point per report at the head.
    const left = Number(/r=(\d+)/.exec(polite.at(-1)!.headers.get("RateLimit")!)![1]);
    expect(left).toBe(DEFAULT_POINTS - polite.length * COSTS.report.points);
    expect((await refusalsCounted(s.indexerUrl)) - refusalsBefore).toBe(f.refused.length);
    console.log(
      `flood: ${f.answers.length - f.refused.length} answers served (${f.spent} points of ${DEFAULT_POINTS}), ${f.refused.length} refused; polite reader: ${polite.length} × 200`,
    );
  });

  it("serve a paid request from an address over its free budget, and a refused payment as the gateway answers it", async () => {
    await s.statementPublished();
    // Over budget now (the window of the flood above, or a new one spent again).
    let free = await flooder(`${s.indexerUrl}/paid/reserves`);
    if (free.status !== 429) {
      await flood(flooder, [s.indexerUrl]);
      free = await flooder(`${s.indexerUrl}/paid/reserves`);
    }
    expectRefusal(free);
    const challenge = await fetch(`${s.indexerUrl}/paid/reserves`);
    expect(challenge.status).toBe(402);
    const required = decodePaymentRequiredHeader(challenge.headers.get("PAYMENT-REQUIRED")!) as { accepts: unknown[] };
    const payer = await fundedAgent(s, "rate-limit", 1);
    const paid = await flooder(`${s.indexerUrl}/paid/reserves`, {
      headers: { "PAYMENT-SIGNATURE": await paymentHeader(payer.key, required.accepts[0]) },
    });
    expect(paid.status, paid.body.slice(0, 300)).toBe(200);
    expect(paid.headers.get("PAYMENT-RESPONSE")).toBeTruthy();
    expect(JSON.parse(paid.body)).toHaveProperty("attestation_hash");
    const junk = await flooder(`${s.indexerUrl}/paid/reserves`, { headers: { "PAYMENT-SIGNATURE": "not-a-payment" } });
    expect(junk.status).toBe(400);
    expect(JSON.parse(junk.body).error.code).toBe("invalid_payment_header");
  });
});

describe.runIf(inject("database") === "postgres")("per-client limits over two API processes", () => {
  let replica: string;

  beforeAll(async () => {
    const port = await freePort();
    const child = spawn(process.execPath, ["--import", "tsx", "stack/replica.ts"], {
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        ...process.env,
        PORT: String(port),
        DATABASE_URL: process.env.DATABASE_URL!,
        KUSD_VIEWS_SCHEMA: inject("viewsSchema"),
        // The indexer's API keeps its counts beside the operator store it shares with replicas.
        KUSD_STORE_SCHEMA: inject("storeSchema"),
        KUSD_X402_FACILITATOR_URL: "",
      },
    });
    children.push(child);
    let output = "";
    child.stdout?.on("data", (c) => (output += c));
    child.stderr?.on("data", (c) => (output += c));
    replica = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 60_000;
    for (;;) {
      const status = await fetch(`${replica}/api/stats`).then(
        (r) => r.status,
        () => 0,
      );
      if (status === 200) break;
      if (Date.now() > deadline) throw new Error(`the replica did not start: ${output}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }, 90_000);

  it("share one limit in PostgreSQL: a flood split over both runs out at the same total", async () => {
    const f = await flood(client("127.0.0.4"), [s.indexerUrl, replica]);
    expectSpent(f.spent);
    for (const a of f.refused) expectRefusal(a);
    // Both processes refused, and both served part of the budget.
    for (const api of [s.indexerUrl, replica]) {
      expect(f.refused.some((a) => a.api === api)).toBe(true);
      expect(f.answers.some((a) => a.api === api && a.status === 200)).toBe(true);
    }
    expect(await (await fetch(`${replica}/metrics`)).text()).toContain('kusd_rate_limit_store{store="postgres"} 1');
    console.log(
      `flood over two processes: ${f.spent} points served (${f.answers.filter((a) => a.status === 200 && a.api === replica).length} answers by the replica), ${f.refused.length} refused`,
    );
  });
});

describe("per-client limits in Redis", () => {
  it("keep one limit for two stores, as two processes would", async () => {
    const redisUrl = "redis://127.0.0.1:6379";
    const stores = [0, 1].map(() => openRateLimitStore({ points: 100, windowSeconds: 60, redisUrl, schema: "unused" }));
    const key = `e2e-${process.pid}-${Date.now()}`;
    try {
      // A store counts nothing (fails open) until its client has connected.
      const deadline = Date.now() + 5_000;
      const consume = async (i: number, points: number) => {
        for (;;) {
          const c = await stores[i % 2]!.consume(key, points);
          if (c.outcome !== "failed") return c;
          if (Date.now() > deadline) throw c.error;
          await new Promise((r) => setTimeout(r, 50));
        }
      };
      let spent = 0;
      for (let i = 0; ; i++) {
        const c = await consume(i, 7);
        if (c.outcome === "refused") break;
        spent += 7;
        expect(c.remaining).toBe(100 - spent);
      }
      expect(spent).toBe(98);
      expect((await consume(0, 1)).outcome).toBe("refused");
      expect((await consume(1, 1)).outcome).toBe("refused");
    } finally {
      const { Redis } = await import("ioredis");
      const redis = new Redis(redisUrl);
      await redis.del(`kusd:${key}`);
      await redis.quit();
      await Promise.all(stores.map((st) => st.close()));
    }
  });
});
