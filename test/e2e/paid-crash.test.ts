/**
 * The API killed (`kill -9`) while a paid request is between verify and settle, then restarted on
 * the same databases. The facilitator's transaction goes through the fault proxy, which holds it
 * at the moment of the kill in one of two ways:
 *   - it never left (mode timeout): nothing was charged; the payer's retry of the same
 *     authorization is settled exactly once;
 *   - it reached the chain and its answer was lost (mode blackhole): the payer was charged and
 *     answered nothing; recovery finds the transfer on chain and records it, and the retry of the
 *     same authorization gets its answer with the original receipt and no second charge.
 * Balances and `AuthorizationUsed` logs are read from the chain itself. Runs on the PostgreSQL pass
 * only (three API starts, ~100 s): what is tested is the settlement's recovery from the chain, the
 * same on either database (the store's own reads and writes run on both passes in paid.test.ts),
 * and a production gateway runs on PostgreSQL.
 */
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from "@x402/core/http";
import { type Address, getAddress, type Hex, parseAbiItem } from "viem";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { fiatTokenV2Abi } from "../../abis/index.js";
import { type RpcProxy, startRpcProxy } from "../../devnet/rpc-proxy.js";
import { type OwnIndexer, ownIndexers } from "../helpers/own-indexer.js";
import { fundedAgent, paymentHeader, usdcOf as usdcBalance } from "../helpers/payment.js";
import { stack } from "../helpers/stack.js";

const LEASE_SECONDS = 2;
const PRICE = 250_000n;
const s = stack();
const USDC = getAddress(s.addr("usdc"));
const recipient = getAddress(s.deployment.payments.recipient);
const own = ownIndexers("paid-crash");
let proxy: RpcProxy;
let api: OwnIndexer | null = null;

const onThisPass = inject("database") === "postgres";

beforeAll(async () => {
  if (!onThisPass) return;
  proxy = await startRpcProxy({ upstream: s.rpcUrl });
});
afterAll(async () => {
  await own.cleanup();
  await proxy?.stop();
});

const usdcOf = (a: Address) => usdcBalance(s, a);
const authorizationState = (payer: Address, nonce: Hex) =>
  s.client.readContract({
    address: USDC,
    abi: fiatTokenV2Abi,
    functionName: "authorizationState",
    args: [payer, nonce],
    blockTag: "latest",
  });
const usedLogs = (payer: Address, nonce: Hex) =>
  s.client.getLogs({
    address: USDC,
    event: parseAbiItem("event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)"),
    args: { authorizer: payer, nonce },
    fromBlock: 0n,
    toBlock: "latest",
  });

async function until<T>(
  what: string,
  probe: () => Promise<T | null | undefined | false>,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => null);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** (Re)starts the API on the same databases; ready once it has a statement to sell. */
async function startApi() {
  api = await own.start("paid", {
    env: { PONDER_RPC_URL_8453: proxy.url, KUSD_PAYMENT_LEASE_SECONDS: String(LEASE_SECONDS) },
  });
  const url = api.indexer.url;
  await until("a statement to sell", async () => (await fetch(`${url}/paid/reserves`)).status === 402);
  return url;
}

/** A payer and a signed authorization for GET /paid/reserves, with its nonce. */
async function paidRequest(url: string, label: string) {
  const agent = await fundedAgent(s, label, 10);
  const challenge = await fetch(`${url}/paid/reserves`);
  const requirements = (decodePaymentRequiredHeader(challenge.headers.get("PAYMENT-REQUIRED")!) as any).accepts[0];
  const nonce = `0x${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("hex")}` as Hex;
  return { payer: agent.address, nonce, header: await paymentHeader(agent.key, requirements, { nonce }) };
}

const pay = (url: string, header: string) =>
  fetch(`${url}/paid/reserves`, { headers: { "PAYMENT-SIGNATURE": header } });

/** Sends the paid request with the facilitator's transaction held by `mode`, and kills the API while it is held. */
async function killDuringSettlement(
  url: string,
  header: string,
  mode: "timeout" | "blackhole",
  landed: () => Promise<boolean>,
) {
  const failedBefore = proxy.stats().failed;
  proxy.setFaults([{ method: "eth_sendRawTransaction", mode }]);
  const pending = pay(url, header).then(
    (r) => `answered ${r.status}`,
    () => "no answer",
  );
  await until("the settlement transaction at the proxy", async () => proxy.stats().failed > failedBefore);
  if (mode === "blackhole") await until("the transfer on chain", landed);
  api!.indexer.process.kill("SIGKILL");
  expect(await pending).toBe("no answer");
  await until(
    "the API to exit",
    async () => api!.indexer.process.exitCode !== null || api!.indexer.process.signalCode !== null,
  );
  proxy.clearFaults();
}

/** Retries the same authorization, waiting out `payment_in_progress` as its Retry-After says. */
async function retry(url: string, header: string) {
  for (let i = 0; i < 20; i++) {
    const res = await pay(url, header);
    if (res.status !== 409) return res;
    const body = (await res.clone().json()) as { error: { code: string } };
    if (body.error.code !== "payment_in_progress") return res;
    await new Promise((r) => setTimeout(r, Number(res.headers.get("Retry-After") ?? 1) * 1000));
  }
  throw new Error("still in progress after 20 retries");
}

describe.runIf(onThisPass)("API killed between verify and settle", () => {
  it("the transfer never left: nothing charged; the retry of the same authorization settles exactly once", async () => {
    let url = await startApi();
    const p = await paidRequest(url, "crash-before-send");
    const [payer0, recipient0] = await Promise.all([usdcOf(p.payer), usdcOf(recipient)]);
    await killDuringSettlement(url, p.header, "timeout", async () => false);
    expect(await authorizationState(p.payer, p.nonce)).toBe(false);
    expect(await usdcOf(p.payer)).toBe(payer0);

    url = await startApi();
    const res = await retry(url, p.header);
    expect(res.status).toBe(200);
    const receipt = decodePaymentResponseHeader(res.headers.get("PAYMENT-RESPONSE")!) as { transaction: Hex };
    const logs = await usedLogs(p.payer, p.nonce);
    expect(logs.map((l) => l.transactionHash)).toEqual([receipt.transaction]);
    expect(payer0 - (await usdcOf(p.payer))).toBe(PRICE);
    expect((await usdcOf(recipient)) - recipient0).toBe(PRICE);

    const again = await pay(url, p.header);
    expect(again.status).toBe(409);
    expect(((await again.json()) as any).error).toMatchObject({
      code: "payment_already_used",
      details: { settlementTx: receipt.transaction },
    });
  }, 400_000);

  it("the transfer landed, its answer was lost: the settlement is recorded from the chain and the retry is answered without a second charge", async () => {
    let url = api?.indexer.process.exitCode === null ? api.indexer.url : await startApi();
    const p = await paidRequest(url, "crash-after-send");
    const [payer0, recipient0] = await Promise.all([usdcOf(p.payer), usdcOf(recipient)]);
    await killDuringSettlement(url, p.header, "blackhole", () => authorizationState(p.payer, p.nonce));
    const [landed] = await usedLogs(p.payer, p.nonce);
    expect(landed).toBeDefined();
    expect(payer0 - (await usdcOf(p.payer))).toBe(PRICE); // charged, and nothing was answered

    url = await startApi();
    await new Promise((r) => setTimeout(r, (LEASE_SECONDS + 1) * 1000)); // the recovery sweep's turn
    const res = await retry(url, p.header);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { signature: string; attestation_hash: string };
    expect(body.signature).toMatch(/^0x[0-9a-f]{130}$/);
    const receipt = decodePaymentResponseHeader(res.headers.get("PAYMENT-RESPONSE")!) as {
      success: boolean;
      transaction: Hex;
    };
    expect(receipt).toMatchObject({ success: true, transaction: landed!.transactionHash });
    // Still exactly one transfer for this authorization, and one price paid.
    expect((await usedLogs(p.payer, p.nonce)).length).toBe(1);
    expect(payer0 - (await usdcOf(p.payer))).toBe(PRICE);
    expect((await usdcOf(recipient)) - recipient0).toBe(PRICE);

    // The owed answer is given once.
    const again = await pay(url, p.header);
    expect(again.status).toBe(409);
    expect(((await again.json()) as any).error).toMatchObject({
      code: "payment_already_used",
      details: { settlementTx: landed!.transactionHash },
    });
  }, 400_000);
});
