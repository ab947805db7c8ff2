/**
 * Paid settlement across API processes (issue 42), with real processes on PostgreSQL: one
 * facilitator process (`stack/facilitator.ts`, its own gas key) and two read replicas
 * (`stack/replica.ts`) that settle through it, sharing one operator store. 40 payers spread over
 * both are each served and settled once, the facilitator's transactions take consecutive nonces
 * (none collides), exactly the price moves per payer, and a payment used at one process is refused
 * by the other. A replica configured with the in-process facilitator serves no gateway and says why.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { decodePaymentRequiredHeader } from "@x402/core/http";
import { getAddress, type Hex, parseEther, parseUnits } from "viem";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { devnetKey } from "../../devnet/keys.js";
import { buy } from "../../packages/buy/src/index.js";
import { fundedAgent, paymentHeader, usdcOf } from "../helpers/payment.js";
import { freePort } from "../helpers/ports.js";
import { stack } from "../helpers/stack.js";

const s = stack();
const d = s.deployment;
const onPostgres = inject("database") === "postgres";
const PAYERS = 40;
const PRICE = 250_000n; // GET /reserves, 0.25 USDC
const USDC = getAddress(s.addr("usdc"));
const recipient = getAddress(d.payments.recipient);
const attestation = getAddress(d.signers.attestation);
const limit = { network: "eip155:8453" as const, asset: USDC, maxAmount: parseUnits("0.25", 6) };

const children: ChildProcess[] = [];
afterAll(async () => {
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

/** A process of the stack (`stack/<entry>.ts`) on a port of its own, with its output kept. */
async function startProcess(entry: string, env: Record<string, string>) {
  const port = await freePort();
  const child = spawn(process.execPath, ["--import", "tsx", `stack/${entry}.ts`], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, PORT: String(port), ...env },
  });
  children.push(child);
  let out = "";
  child.stdout?.on("data", (c) => (out += c));
  child.stderr?.on("data", (c) => (out += c));
  return { url: `http://127.0.0.1:${port}`, child, output: () => out };
}

async function answers(url: string, status: number, ms = 60_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const got = await fetch(url).then(
      (r) => r.status,
      () => 0,
    );
    if (got === status) return;
    if (Date.now() > deadline) throw new Error(`${url} did not answer ${status} (last: ${got})`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

const replicaEnv = (facilitatorUrl: string | null) => ({
  DATABASE_URL: process.env.DATABASE_URL!,
  KUSD_VIEWS_SCHEMA: inject("viewsSchema"),
  KUSD_STORE_SCHEMA: inject("storeSchema"),
  KUSD_X402_FACILITATOR_URL: facilitatorUrl ?? "",
});

describe.runIf(onPostgres)("paid settlement across API processes", () => {
  const gas = devnetKey(`test:facilitator:${process.pid}`);
  let facilitator: Awaited<ReturnType<typeof startProcess>>;
  let replicas: Array<Awaited<ReturnType<typeof startProcess>>>;

  beforeAll(async () => {
    await s.caughtUp();
    // The facilitator pays gas from a key of its own: nothing else sends from it.
    await s.client.request({
      method: "anvil_setBalance" as never,
      params: [gas.address, `0x${parseEther("10").toString(16)}`] as never,
    });
    facilitator = await startProcess("facilitator", {
      KUSD_FACILITATOR_PRIVATE_KEY: gas.privateKey,
      KUSD_X402_FACILITATOR_URL: "",
    });
    await answers(`${facilitator.url}/supported`, 200);
    replicas = await Promise.all([0, 1].map(() => startProcess("replica", replicaEnv(facilitator.url))));
    for (const r of replicas) await answers(`${r.url}/paid/reserves`, 402);
  }, 120_000);

  it("40 payers over two replicas: each served and settled once, consecutive facilitator nonces, exactly the price moved", {
    timeout: 180_000,
  }, async () => {
    const payers = [];
    for (let i = 0; i < PAYERS; i++) payers.push(await fundedAgent(s, `processes-${i}`, 1)); // one minter key: in turn
    const before = await Promise.all(payers.map((p) => usdcOf(s, p.address)));
    const recipient0 = await usdcOf(s, recipient);
    const nonce0 = await s.client.getTransactionCount({ address: gas.address, blockTag: "pending" });
    const bought = await Promise.all(
      payers.map((p, i) =>
        buy({
          url: `${replicas[i % 2]!.url}/paid/reserves`,
          method: "GET",
          privateKey: p.key,
          limit,
          trust: { signer: attestation },
        }).catch((e: Error) => ({ status: -1, settlement: null, error: e.message })),
      ),
    );
    const failed = bought.filter((b) => b.status !== 200);
    expect(failed, JSON.stringify(failed.slice(0, 3))).toEqual([]);
    const txs = bought.map((b) => b.settlement?.transaction as Hex);
    expect(new Set(txs).size).toBe(PAYERS);
    const sent = await Promise.all(txs.map((hash) => s.client.getTransaction({ hash })));
    const receipts = await Promise.all(txs.map((hash) => s.client.getTransactionReceipt({ hash })));
    expect(receipts.every((r) => r.status === "success")).toBe(true);
    expect(new Set(sent.map((t) => getAddress(t.from)))).toEqual(new Set([gas.address]));
    // One counter for the key: 40 nonces in a row, none used twice, none skipped.
    expect(sent.map((t) => t.nonce).sort((a, b) => a - b)).toEqual(
      Array.from({ length: PAYERS }, (_, i) => nonce0 + i),
    );
    const after = await Promise.all(payers.map((p) => usdcOf(s, p.address)));
    expect(after.map((a, i) => before[i]! - a)).toEqual(payers.map(() => PRICE));
    expect((await usdcOf(s, recipient)) - recipient0).toBe(PRICE * BigInt(PAYERS));
    console.log(
      `paid across two replicas: ${PAYERS} payers, ${new Set(txs).size} settlements, nonces ${nonce0}..${nonce0 + PAYERS - 1}, recipient +${(PRICE * BigInt(PAYERS)).toString()} (USDC units)`,
    );
  });

  it("a payment used at one replica is refused at the other, and charged once", { timeout: 60_000 }, async () => {
    const payer = await fundedAgent(s, "processes-replay", 1);
    const [a, b] = replicas as [(typeof replicas)[0], (typeof replicas)[0]];
    const challenge = await fetch(`${a.url}/paid/reserves`);
    const required = decodePaymentRequiredHeader(challenge.headers.get("PAYMENT-REQUIRED")!) as { accepts: unknown[] };
    const header = await paymentHeader(payer.key, required.accepts[0]);
    const before = await usdcOf(s, payer.address);
    const first = await fetch(`${a.url}/paid/reserves`, { headers: { "PAYMENT-SIGNATURE": header } });
    expect(first.status).toBe(200);
    const again = await fetch(`${b.url}/paid/reserves`, { headers: { "PAYMENT-SIGNATURE": header } });
    expect(again.status).toBe(409);
    expect(((await again.json()) as { error: { code: string } }).error.code).toBe("payment_already_used");
    expect(before - (await usdcOf(s, payer.address))).toBe(PRICE);
  });

  it("the facilitator settles only this deployment's payments, and answers bad requests 4xx JSON", async () => {
    const bad = await fetch(`${facilitator.url}/settle`, { method: "POST", body: "{not json" });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe("invalid_facilitator_request");
    const challenge = await fetch(`${replicas[0]!.url}/paid/reserves`);
    const required = decodePaymentRequiredHeader(challenge.headers.get("PAYMENT-REQUIRED")!) as {
      accepts: Array<Record<string, unknown>>;
    };
    const elsewhere = { ...required.accepts[0]!, payTo: devnetKey("test:someone-else").address };
    const payer = devnetKey("test:facilitator-stranger");
    const body = JSON.stringify({
      x402Version: 2,
      paymentPayload: JSON.parse(Buffer.from(await paymentHeader(payer.privateKey, elsewhere), "base64").toString()),
      paymentRequirements: elsewhere,
    });
    const refused = await fetch(`${facilitator.url}/settle`, {
      method: "POST",
      body,
      headers: { "content-type": "application/json" },
    });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("not_this_deployments_payment");
  });

  it("a replica with the in-process facilitator serves no gateway, and says why", { timeout: 60_000 }, async () => {
    const r = await startProcess("replica", replicaEnv(null));
    await answers(`${r.url}/api/stats`, 200);
    expect((await fetch(`${r.url}/paid/reserves`)).status).toBe(404);
    expect(r.output()).toContain("the paid gateway is not served by this replica");
    expect(r.output()).toContain("serve:facilitator");
  });
});
