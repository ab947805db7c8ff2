/**
 * A browser on another origin pays: a page served by a static server of its own (another port,
 * so another origin than the API) runs the official x402 client (@x402/fetch + @x402/evm) in
 * Chromium, pays GET /paid/reserves from a devnet-funded account, and verifies the artifact with
 * the reserves page's verifier. The payer's USDC goes down by exactly the price the 402 asked and
 * the recipient's goes up by it, read from the chain; the receipt names a transaction that moved it.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser } from "playwright-core";
import { type Address, getAddress, type Hex, parseUnits } from "viem";
import { build, type Rollup } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../helpers/browser.js";
import { fundedAgent, usdcOf as usdcBalance } from "../helpers/payment.js";
import { stack } from "../helpers/stack.js";
import type { payReserves } from "./cross-origin/pay-reserves.js";

const s = stack();
const USDC = getAddress(s.addr("usdc"));
const recipient = getAddress(s.deployment.payments.recipient);
const operator = getAddress(s.deployment.signers.operator);
let browser: Browser;
let server: Server;
let pageOrigin: string;

const usdcOf = (a: Address) => usdcBalance(s, a);

/** The page's script and the chunks it imports, bundled in memory by vite. */
async function bundle(): Promise<Map<string, string>> {
  const out = (await build({
    configFile: false,
    logLevel: "warn",
    build: {
      write: false,
      minify: false,
      target: "chrome120",
      lib: {
        entry: new URL("./cross-origin/pay-reserves.ts", import.meta.url).pathname,
        formats: ["es"],
        fileName: "pay",
      },
    },
  })) as Rollup.RollupOutput | Rollup.RollupOutput[];
  const files = (Array.isArray(out) ? out : [out]).flatMap((o) => o.output);
  return new Map(files.map((f) => [`/${f.fileName}`, f.type === "chunk" ? f.code : String(f.source)]));
}

/** Serves the page and its scripts on 127.0.0.1, on a port of its own. */
async function servePage(files: Map<string, string>): Promise<Server> {
  const page =
    '<!doctype html><meta charset="utf-8"><title>pays kUSD</title><link rel="icon" href="data:,"><script type="module" src="/pay.js"></script>';
  const srv = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    const body = path === "/" ? page : files.get(path);
    if (body === undefined) return res.writeHead(404).end();
    res.writeHead(200, { "content-type": path === "/" ? "text/html" : "text/javascript" }).end(body);
  });
  await new Promise<void>((resolve) => srv.listen(0, "127.0.0.1", resolve));
  return srv;
}

beforeAll(async () => {
  const [files] = await Promise.all([bundle(), s.caughtUp().then(() => s.statementPublished())]);
  server = await servePage(files);
  pageOrigin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
});

describe("a page on another origin", () => {
  it("pays GET /paid/reserves with @x402/fetch in Chromium and verifies the artifact; exactly the price moves", async () => {
    expect(new URL(pageOrigin).origin).not.toBe(new URL(s.indexerUrl).origin);
    const agent = await fundedAgent(s, "cross-origin", 1);
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
    page.on("console", (m) => m.type() === "error" && problems.push(`console: ${m.text()}`));
    await page.goto(`${pageOrigin}/`);
    await page.waitForFunction(() => "payReserves" in globalThis);
    const [payer0, recipient0] = await Promise.all([usdcOf(agent.address), usdcOf(recipient)]);

    const input: Parameters<typeof payReserves>[0] = {
      api: s.indexerUrl,
      privateKey: agent.key,
      network: "eip155:8453",
      asset: USDC,
      maxAmount: parseUnits("0.25", 6).toString(),
      operator,
    };
    const result = await page.evaluate(
      (i) => (globalThis as unknown as { payReserves: typeof payReserves }).payReserves(i),
      input,
    );
    console.log(
      "cross-origin payment:",
      JSON.stringify({ ...result, checks: result.checks.map((c) => `${c.name}:${c.ok}`) }),
    );

    // What the page could read across origins: the challenge, the receipt, the request id.
    expect(result.origin).toBe(pageOrigin);
    expect(result.unpaidStatus).toBe(402);
    expect(result.price).not.toBeNull();
    expect(result.bazaarMethod).toBe("GET");
    expect(result.status).toBe(200);
    expect(result.requestId).toMatch(/\S/);
    expect(result.settlement).toMatchObject({ success: true, network: "eip155:8453" });
    expect(getAddress((result.settlement as { payer: string }).payer)).toBe(agent.address);
    // The artifact verifies in the browser: hash, signature, signer authorised by the binding, freshness.
    expect(result.verified, JSON.stringify(result.checks)).toBe(true);
    expect(result.attestationHash).toBe(
      ((await (await fetch(`${s.indexerUrl}/api/por/signed`)).json()) as any).attestation_hash,
    );

    // On chain: the payer paid exactly the price the 402 asked (the descriptor's price), and the recipient got it.
    const price = BigInt(result.price!);
    const descriptor = (await (await fetch(`${s.indexerUrl}/paid/openapi.json`)).json()) as any;
    expect(price).toBe(parseUnits(descriptor.paths["/reserves"].get["x-payment-info"].price.amount, 6));
    const [payer1, recipient1] = await Promise.all([usdcOf(agent.address), usdcOf(recipient)]);
    expect(payer0 - payer1).toBe(price);
    expect(recipient1 - recipient0).toBe(price);
    const receipt = await s.client.getTransactionReceipt({
      hash: (result.settlement as { transaction: Hex }).transaction,
    });
    expect(receipt.status).toBe("success");
    expect(receipt.logs.some((l) => getAddress(l.address) === USDC)).toBe(true);
    // Chromium logs every answer that is not 2xx: the two 402s (the page's own look, @x402/fetch's first try) are the protocol.
    const unexpected = problems.filter(
      (p) => !p.endsWith("the server responded with a status of 402 (Payment Required)"),
    );
    expect(unexpected).toEqual([]);
    expect(problems.length).toBe(2);
    await page.close();
  });
});
