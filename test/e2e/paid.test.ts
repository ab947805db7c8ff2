/**
 * The paid gateway on the devnet with real settlement: the 402 challenge, paid reads that move
 * exactly the price from payer to recipient and come back signed by the bound key, replays and
 * concurrent duplicates settled once, expired and underpaid authorizations refused, and every
 * bad input answered 4xx before any payment is asked or taken.
 */

import { execFile } from "node:child_process";
import SwaggerParser from "@apidevtools/swagger-parser";
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from "@x402/core/http";
import { type Address, getAddress, type Hex, parseAbiItem, parseUnits } from "viem";
import { afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import { devnetKey } from "../../devnet/keys.js";
import { buy, runBuy } from "../../packages/buy/src/index.js";
import { fundedAgent as fundedAgentOf, paymentHeader, usdcOf as usdcBalance } from "../helpers/payment.js";
import { stack } from "../helpers/stack.js";

const s = stack();
const d = s.deployment;
const gateway = `${s.indexerUrl}/paid`;
const USDC = getAddress(s.addr("usdc"));
const recipient = getAddress(d.payments.recipient);
const operator = getAddress(d.signers.operator);
const attestation = getAddress(d.signers.attestation);
const limit = (usd: number) => ({
  network: "eip155:8453" as const,
  asset: USDC,
  maxAmount: parseUnits(String(usd), 6),
});
const usdcOf = (a: Address) => usdcBalance(s, a);
const setFaults = (faults: unknown[]) =>
  fetch(`${inject("rpcProxyUrl")}/__proxy/faults`, { method: "POST", body: JSON.stringify(faults) });

const fundedAgent = (label: string, usdc?: number) => fundedAgentOf(s, label, usdc);

const post = (path: string, body: string, headers: Record<string, string> = {}) =>
  fetch(`${gateway}${path}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });

async function challenge(method: "GET" | "POST", path: string, body?: string) {
  const res = await fetch(`${gateway}${path}`, { method, headers: { "content-type": "application/json" }, body });
  expect(res.status).toBe(402);
  const header = res.headers.get("PAYMENT-REQUIRED");
  expect(header).toBeTruthy();
  return decodePaymentRequiredHeader(header!) as any;
}

beforeAll(async () => {
  await s.caughtUp();
});
afterEach(async () => {
  await setFaults([]);
});

describe("descriptor", () => {
  it("is a valid OpenAPI 3.1.0 document with both priced operations, the network, recipient and builder code", async () => {
    const doc = (await (await fetch(`${gateway}/.well-known/openapi.json`)).json()) as any;
    await SwaggerParser.validate(structuredClone(doc));
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe("1.0.0");
    const get = doc.paths["/reserves"].get;
    const post = doc.paths["/instant-read"].post;
    expect([get.operationId, post.operationId]).toEqual(["getReserves", "postInstantRead"]);
    expect(get.tags).toEqual(["Verification"]);
    expect(post.tags).toEqual(["Verification"]);
    expect(get["x-payment-info"]).toMatchObject({
      price: { mode: "fixed", currency: "USD", amount: "0.250000" },
      protocol: "x402",
    });
    expect(post["x-payment-info"]).toMatchObject({
      price: { mode: "fixed", currency: "USD", amount: "29.000000" },
      protocol: "x402",
    });
    expect(doc["x-x402"]).toMatchObject({ network: "eip155:8453", recipient, builderCode: d.payments.builderCode });
    expect(get.responses["402"]).toBeDefined();
    expect(Object.keys(doc.paths).every((p) => !/\/v\d/.test(p))).toBe(true);
  });
});

describe("402 challenge", () => {
  it("GET /reserves without payment: x402Version 2, exact, eip155:8453, the devnet USDC, 250000, the recipient", async () => {
    const pr = await challenge("GET", "/reserves");
    expect(pr.x402Version).toBe(2);
    expect(pr.accepts[0]).toMatchObject({
      scheme: "exact",
      network: "eip155:8453",
      amount: "250000",
      payTo: recipient,
    });
    expect(getAddress(pr.accepts[0].asset)).toBe(USDC);
  });
  it("POST /instant-read with a valid body and no payment: 29000000", async () => {
    const dai = d.chains.ethereum.contracts.DAI!.address;
    const pr = await challenge("POST", "/instant-read", JSON.stringify({ chain: "ethereum", address: dai }));
    expect(pr.accepts[0]).toMatchObject({ amount: "29000000", payTo: recipient });
  });
});

describe("paid reads", () => {
  it("GET /reserves: 200, exactly 0.25 USDC moves, the receipt names the settlement, the attestation verifies", async () => {
    const agent = await fundedAgent("reserves");
    const [payer0, recipient0] = await Promise.all([usdcOf(agent.address), usdcOf(recipient)]);
    const p = await buy({
      url: `${gateway}/reserves`,
      method: "GET",
      privateKey: agent.key,
      limit: limit(0.25),
      trust: { binding: `${s.indexerUrl}/api/por/signer-registry`, operator },
    });
    expect(p.status).toBe(200);
    expect(p.verification.verified).toBe(true);
    expect(getAddress(p.artifact.signer as string)).toBe(attestation);
    expect(typeof p.artifact.aggregate_solvency_ratio).toBe("number");
    const [payer1, recipient1] = await Promise.all([usdcOf(agent.address), usdcOf(recipient)]);
    expect(payer0 - payer1).toBe(250_000n);
    expect(recipient1 - recipient0).toBe(250_000n);
    const receipt = await s.client.getTransactionReceipt({ hash: p.settlement!.transaction as Hex });
    const transfer = receipt.logs.find((l) => getAddress(l.address) === USDC);
    expect(transfer).toBeDefined();
  });

  it("POST /instant-read on ethereum: 200, 29 USDC, a signed read whose block is in the signed payload", async () => {
    const agent = await fundedAgent("instant");
    const dai = getAddress(d.chains.ethereum.contracts.DAI!.address);
    const [payer0, recipient0] = await Promise.all([usdcOf(agent.address), usdcOf(recipient)]);
    const p = await buy({
      url: `${gateway}/instant-read`,
      method: "POST",
      body: { chain: "ethereum", address: dai },
      privateKey: agent.key,
      limit: limit(29),
      trust: { binding: `${s.indexerUrl}/api/por/signer-registry`, operator },
    });
    expect(p.verification.verified).toBe(true);
    expect(p.artifact).toMatchObject({ ok: true, chain: "ethereum", kind: "erc20-total-supply" });
    const payload = JSON.parse(p.artifact.signed_payload_canonical as string);
    const { createPublicClient, http } = await import("viem");
    const eth = createPublicClient({ transport: http(d.chains.ethereum.rpcUrl) });
    const abi = [
      parseAbiItem("function totalSupply() view returns (uint256)"),
      parseAbiItem("function symbol() view returns (string)"),
    ];
    const supply = await eth.readContract({
      address: dai,
      abi,
      functionName: "totalSupply",
      blockNumber: BigInt(payload.block_number),
    });
    expect(payload.total_supply_raw).toBe(supply.toString());
    expect((p.artifact.token as any).symbol).toBe(
      await eth.readContract({ address: dai, abi, functionName: "symbol", blockNumber: BigInt(payload.block_number) }),
    );
    expect(Number.isInteger(payload.block_number)).toBe(true);
    const [payer1, recipient1] = await Promise.all([usdcOf(agent.address), usdcOf(recipient)]);
    expect(payer0 - payer1).toBe(29_000_000n);
    expect(recipient1 - recipient0).toBe(29_000_000n);
  });

  it("concurrent buyers are each served and settled (one facilitator key, no nonce races)", async () => {
    const agents = [];
    for (const i of [1, 2, 3]) agents.push(await fundedAgent(`concurrent-${i}`)); // one minter key: fund one at a time
    const recipient0 = await usdcOf(recipient);
    const bought = await Promise.all(
      agents.map((a) =>
        buy({
          url: `${gateway}/reserves`,
          method: "GET",
          privateKey: a.key,
          limit: limit(0.25),
          trust: { signer: attestation },
        }),
      ),
    );
    expect(bought.map((b) => b.status)).toEqual([200, 200, 200]);
    expect(new Set(bought.map((b) => b.settlement?.transaction)).size).toBe(3);
    expect((await usdcOf(recipient)) - recipient0).toBe(750_000n);
  });

  it("the client's spend limit refuses a price above it, and nothing is paid", async () => {
    const agent = await fundedAgent("limit");
    const before = await usdcOf(agent.address);
    await expect(
      buy({
        url: `${gateway}/reserves`,
        method: "GET",
        privateKey: agent.key,
        limit: limit(0.1),
        trust: { signer: attestation },
      }),
    ).rejects.toThrow();
    expect(await usdcOf(agent.address)).toBe(before);
  });
});

describe("kusd-buy", () => {
  it("buys both artifacts under explicit spend caps and verifies them against the binding", async () => {
    const agent = await fundedAgent("cli");
    const env = { KUSD_AGENT_KEY: agent.key };
    const trust = ["--binding", `${s.indexerUrl}/api/por/signer-registry`, "--operator", operator];
    const reserves = await runBuy(["reserves", "--gateway", gateway, "--max-usd", "0.25", ...trust], env);
    expect(reserves.exitCode, reserves.output).toBe(0);
    expect(reserves.output).toContain("VERIFIED");
    const read = await runBuy(
      [
        "instant-read",
        "--chain",
        "ethereum",
        "--address",
        d.chains.ethereum.contracts.LINK!.address,
        "--gateway",
        gateway,
        "--max-usd",
        "29",
        ...trust,
        "--json",
      ],
      env,
    );
    expect(read.exitCode, read.output).toBe(0);
    expect(JSON.parse(read.output)).toMatchObject({ verified: true, artifact: { ok: true, chain: "ethereum" } });
    const tooLow = await runBuy(
      ["instant-read", "--address", USDC, "--gateway", gateway, "--max-usd", "1", ...trust],
      env,
    );
    expect(tooLow.exitCode).toBe(2);
    expect((await runBuy(["reserves", "--gateway", gateway, ...trust], env)).exitCode).toBe(2); // no --max-usd
  });

  it("says in plain words why it did not buy: a price above --max-usd (both amounts), an unfunded payer (balance, price, how to fund)", async () => {
    const trust = ["--binding", `${s.indexerUrl}/api/por/signer-registry`, "--operator", operator];
    const agent = await fundedAgent("cli-cap");
    const capped = await runBuy(["instant-read", "--address", USDC, "--gateway", gateway, "--max-usd", "1", ...trust], {
      KUSD_AGENT_KEY: agent.key,
    });
    expect(capped.exitCode).toBe(2);
    expect(capped.output).toContain("price 29 USDC, your --max-usd allows 1 USDC");
    expect(await usdcOf(agent.address)).toBe(parseUnits("100", 6)); // nothing was paid

    const broke = devnetKey("kusd-buy:unfunded");
    const refused = await runBuy(
      ["reserves", "--gateway", gateway, "--max-usd", "0.25", "--rpc-url", s.rpcUrl, ...trust],
      { KUSD_AGENT_KEY: broke.privateKey },
    );
    expect(refused.exitCode, refused.output).toBe(2);
    expect(refused.output).toContain("the gateway refused the payment");
    expect(refused.output).toContain("price 0.25 USDC");
    expect(refused.output).toContain(`payer ${broke.address} holds 0 USDC`);
    expect(refused.output).toContain(`npm run devnet:fund -- ${broke.address}`);
  });

  it("npm run devnet:fund mints devnet USDC to an agent, which can then buy", async () => {
    const agent = devnetKey("devnet:fund");
    // Run without blocking this process: a spawnSync of several seconds left the test's idle
    // keep-alive sockets to the API unread while the server closed them, and the purchase below
    // then reused a closed one ("other side closed").
    const fund = (...args: string[]) =>
      new Promise<{ status: number; stdout: string; stderr: string }>((resolve) => {
        execFile(
          "npx",
          ["tsx", "devnet/fund.ts", ...args],
          { encoding: "utf8", env: { ...process.env, DEVNET_DEPLOYMENT: inject("deploymentFile") } },
          (error, stdout, stderr) =>
            resolve({ status: error ? Number((error as { code?: unknown }).code ?? 1) : 0, stdout, stderr }),
        );
      });
    const run = await fund(agent.address, "0.5");
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain(`it now holds 0.5 USDC`);
    expect(await usdcOf(agent.address)).toBe(parseUnits("0.5", 6));
    expect((await fund("0xnot-an-address")).status).toBe(2);
    expect((await fund("--help")).stdout).toContain("Exit codes:");
    const trust = ["--binding", `${s.indexerUrl}/api/por/signer-registry`, "--operator", operator];
    const bought = await runBuy(["reserves", "--gateway", gateway, "--max-usd", "0.25", ...trust], {
      KUSD_AGENT_KEY: agent.privateKey,
    });
    const head = await s.client.getBlock({ blockTag: "latest" });
    expect(
      bought.exitCode,
      `${bought.output}\nchain time − wall clock: ${Number(head.timestamp) - Math.floor(Date.now() / 1000)} s`,
    ).toBe(0);
    expect(await usdcOf(agent.address)).toBe(parseUnits("0.25", 6));
  });

  it("answers --help with its usage and exit codes", async () => {
    const help = await runBuy(["--help"], {});
    expect(help.exitCode).toBe(0);
    expect(help.output).toMatch(/Exit codes:[\s\S]*2 {2}usage error/);
  });
});

describe("replay safety", () => {
  it("a used authorization is refused, and two concurrent copies settle exactly once", async () => {
    const agent = await fundedAgent("replay");
    const pr = await challenge("GET", "/reserves");
    const header = await paymentHeader(agent.key, pr.accepts[0]);
    const before = await usdcOf(agent.address);
    const [a, b] = await Promise.all(
      [1, 2].map(() => fetch(`${gateway}/reserves`, { headers: { "PAYMENT-SIGNATURE": header } })),
    );
    const why = (await Promise.all([a!, b!].map((r) => r.clone().text()))).join(" | ").slice(0, 600);
    expect([a!.status, b!.status].sort(), why).toEqual([200, 409]);
    const again = await fetch(`${gateway}/reserves`, { headers: { "PAYMENT-SIGNATURE": header } });
    expect(again.status).toBe(409);
    expect((await again.json()).error.code).toBe("payment_already_used");
    expect(before - (await usdcOf(agent.address))).toBe(250_000n);
  });

  it("expired and underpaid authorizations are refused, and no USDC moves", async () => {
    const agent = await fundedAgent("bad-auth");
    const pr = await challenge("GET", "/reserves");
    const before = await usdcOf(agent.address);
    const expired = await paymentHeader(agent.key, pr.accepts[0], {
      validBefore: BigInt(Math.floor(Date.now() / 1000) - 60),
    });
    const underpaid = await paymentHeader(agent.key, pr.accepts[0], { value: 1_000n });
    for (const header of [expired, underpaid]) {
      const res = await fetch(`${gateway}/reserves`, { headers: { "PAYMENT-SIGNATURE": header } });
      expect(res.status).toBe(402);
      // The reason is in the JSON body too, not only inside the base64 PAYMENT-REQUIRED header.
      const body = (await res.json()) as { error: { code: string; message: string; details: { reason: string } } };
      expect(body.error.code).toBe("payment_rejected");
      expect(body.error.details.reason).toBe(decodePaymentRequiredHeader(res.headers.get("PAYMENT-REQUIRED")!).error);
    }
    expect(await usdcOf(agent.address)).toBe(before);
  });
});

describe("malformed payment headers and methods are 4xx JSON, never 5xx, never a charge", () => {
  it("a header that is not an x402 v2 exact EVM payment → 400 invalid_payment_header, no USDC moves", async () => {
    const agent = await fundedAgent("bad-header");
    const pr = await challenge("GET", "/reserves");
    const good = JSON.parse(Buffer.from(await paymentHeader(agent.key, pr.accepts[0]), "base64").toString("utf8"));
    const encode = (x: unknown) => Buffer.from(JSON.stringify(x)).toString("base64");
    const { signature: _dropped, ...withoutSignature } = good.payload;
    const headers = [
      encode({ ...good, accepted: { ...good.accepted, network: { chain: 8453 } } }), // network not a string (was a 500)
      encode({ ...good, payload: withoutSignature }), // no signature (was a TypeError text)
      encode({ ...good, payload: { ...good.payload, authorization: { ...good.payload.authorization, nonce: 7 } } }),
      encode({ x402Version: 1 }),
      encode([1, 2]),
      "not base64 at all %%%",
    ];
    const before = [await usdcOf(agent.address), await usdcOf(recipient)];
    for (const header of headers) {
      const res = await fetch(`${gateway}/reserves`, { headers: { "PAYMENT-SIGNATURE": header } });
      expect(res.status, header.slice(0, 40)).toBe(400);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe("invalid_payment_header");
      expect(body.error.message).not.toMatch(/TypeError|Cannot read properties/);
    }
    expect([await usdcOf(agent.address), await usdcOf(recipient)]).toEqual(before);
  });

  it("HEAD on a paid route → 405 with Allow (it used to run the GET handler outside the middleware: a 500)", async () => {
    for (const [path, allow] of [
      ["/reserves", "GET"],
      ["/instant-read", "POST"],
    ] as const) {
      const res = await fetch(`${gateway}${path}`, { method: "HEAD" });
      expect(res.status, path).toBe(405);
      expect(res.headers.get("allow")).toBe(allow);
    }
  });

  it("a wrong method on a paid route → 405 JSON naming the allowed method", async () => {
    const res = await fetch(`${gateway}/reserves`, {
      method: "POST",
      body: "{}",
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toContain("GET");
    expect(await res.json()).toMatchObject({ error: { code: "method_not_allowed" } });
  });
});

describe("bad input is refused before any charge", () => {
  const cases: [string, string, number, string][] = [
    ["malformed JSON", "{not json", 400, "invalid_json"],
    ["missing address", JSON.stringify({ chain: "base" }), 400, "address_required"],
    ["bad address format", JSON.stringify({ address: "0x1234" }), 400, "invalid_address"],
    [
      "chain outside the enum",
      JSON.stringify({ chain: "solana", address: "0x0000000000000000000000000000000000000001" }),
      400,
      "invalid_chain",
    ],
  ];

  it.each(cases)(
    "%s (body %s) → %i %s, no challenge, no USDC moved (even with a payment attached)",
    async (_name, body, status, code) => {
      const agent = await fundedAgent("bad-input");
      const pr = await challenge(
        "POST",
        "/instant-read",
        JSON.stringify({ chain: "ethereum", address: d.chains.ethereum.contracts.DAI!.address }),
      );
      const header = await paymentHeader(agent.key, pr.accepts[0]);
      const before = await usdcOf(agent.address);
      const res = await post("/instant-read", body, { "PAYMENT-SIGNATURE": header });
      expect(res.status).toBe(status);
      expect(res.headers.get("PAYMENT-REQUIRED")).toBeNull();
      expect((await res.json()).error.code).toBe(code);
      expect(await usdcOf(agent.address)).toBe(before);
    },
  );

  it("a mistyped EIP-55 checksum → 400 (it was priced as a read of that address), a body that is not JSON → 415, a large body → 413; no USDC moves", async () => {
    const agent = await fundedAgent("bad-input-2");
    const dai = getAddress(d.chains.ethereum.contracts.DAI!.address);
    const pr = await challenge("POST", "/instant-read", JSON.stringify({ chain: "ethereum", address: dai }));
    const header = await paymentHeader(agent.key, pr.accepts[0]);
    // Flip the case of one letter of the checksummed address: still 40 hex digits, wrong checksum.
    const i = [...dai].findIndex((ch, k) => k > 1 && /[a-fA-F]/.test(ch));
    const mistyped =
      dai.slice(0, i) +
      (dai[i] === dai[i]!.toUpperCase() ? dai[i]!.toLowerCase() : dai[i]!.toUpperCase()) +
      dai.slice(i + 1);
    const before = await usdcOf(agent.address);
    const checksum = await post("/instant-read", JSON.stringify({ chain: "ethereum", address: mistyped }), {
      "PAYMENT-SIGNATURE": header,
    });
    expect(checksum.status).toBe(400);
    expect(await checksum.json()).toMatchObject({
      error: { code: "invalid_address_checksum", details: { checksummed: dai } },
    });
    const lower = await challenge(
      "POST",
      "/instant-read",
      JSON.stringify({ chain: "ethereum", address: dai.toLowerCase() }),
    );
    expect(lower.accepts[0]).toBeDefined(); // all lower case stays accepted (no checksum claimed)
    const text = await fetch(`${gateway}/instant-read`, {
      method: "POST",
      headers: { "content-type": "text/plain", "PAYMENT-SIGNATURE": header },
      body: JSON.stringify({ address: dai }),
    });
    expect(text.status).toBe(415);
    expect(await text.json()).toMatchObject({ error: { code: "unsupported_media_type" } });
    const big = await post(
      "/instant-read",
      JSON.stringify({ chain: "ethereum", address: dai, pad: "x".repeat(20_000) }),
      { "PAYMENT-SIGNATURE": header },
    );
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({ error: { code: "payload_too_large" } });
    expect(await usdcOf(agent.address)).toBe(before);
  });

  it("operator-owned addresses (registry accounts and protocol contracts) → 403 operator_owned_address", async () => {
    for (const address of [s.addr("kUSD"), s.addr("psmMint"), d.accounts.operator!.address, s.addr("multisig")]) {
      const res = await post("/instant-read", JSON.stringify({ address }));
      expect(res.status).toBe(403);
      expect((await res.json()).error.code).toBe("operator_owned_address");
    }
  });

  it("an address with no code → 422 not_a_contract; a contract that is not an ERC-20 → 422 not_an_erc20", async () => {
    const eoa = await post("/instant-read", JSON.stringify({ address: devnetKey("test:nobody").address }));
    expect(eoa.status).toBe(422);
    expect((await eoa.json()).error.code).toBe("not_a_contract");
    const contract = await post("/instant-read", JSON.stringify({ address: s.addr("flashBorrower") }));
    expect(contract.status).toBe(422);
    expect((await contract.json()).error.code).toBe("not_an_erc20");
  });

  it("an RPC failure answers 503 and charges nothing, even with a valid payment attached", async () => {
    const agent = await fundedAgent("rpc-down");
    const pr = await challenge("POST", "/instant-read", JSON.stringify({ address: USDC }));
    const header = await paymentHeader(agent.key, pr.accepts[0]);
    const before = await usdcOf(agent.address);
    await setFaults([{ method: "eth_getBlockByNumber", mode: "error" }]);
    const res = await post("/instant-read", JSON.stringify({ address: USDC }), { "PAYMENT-SIGNATURE": header });
    expect(res.status).toBe(503);
    await setFaults([]);
    expect(await usdcOf(agent.address)).toBe(before);
    // Not charged, so the same authorization still pays once the chain answers again.
    const retry = await post("/instant-read", JSON.stringify({ address: USDC }), { "PAYMENT-SIGNATURE": header });
    expect(retry.status).toBe(200);
    expect(decodePaymentResponseHeader(retry.headers.get("PAYMENT-RESPONSE")!)).toMatchObject({ success: true });
    expect(before - (await usdcOf(agent.address))).toBe(29_000_000n);
  });
});
