/**
 * HTTP as clients expect it, on the running stack (Ponder's server, the patched @hono/node-server):
 * a 304 carries no content headers; HEAD on every GET route carries the Content-Length of the
 * body GET sends; a known path asked with another method is a 405 whose Allow names HEAD beside
 * GET (Ponder's own /metrics included), and the paid answers, which refuse HEAD, leave it out; an
 * underfunded payer gets a valid x402 402 that says insufficient funds with the balance (checked
 * against a direct balanceOf) and the price, and is charged nothing.
 */
import { decodePaymentRequiredHeader } from "@x402/core/http";
import { PaymentRequiredV2Schema } from "@x402/core/schemas";
import { type Address, formatUnits, getAddress, type Hex } from "viem";
import { beforeAll, describe, expect, it } from "vitest";
import { fiatTokenV2Abi } from "../../abis/index.js";
import { fundedAgent, paymentHeader, usdcOf as usdcBalance } from "../helpers/payment.js";
import { stack } from "../helpers/stack.js";

const s = stack();
const api = s.indexerUrl;
const END = s.deployment.chains.base.historyEndBlock;
const USDC = getAddress(s.addr("usdc"));
const recipient = getAddress(s.deployment.payments.recipient);
// Bytes as sent: no content coding, so Content-Length counts what a GET body holds.
const identity = { "Accept-Encoding": "identity" };

type Doc = { paths: Record<string, Record<string, { parameters?: { name: string; required?: boolean }[] }>> };

beforeAll(async () => {
  await s.caughtUp();
});

/** Every GET route of the stack with a URL that answers: the documented ones, Ponder's own, and the rest. */
async function getRoutes(): Promise<string[]> {
  const doc = (await (await fetch(`${api}/api/openapi.json`)).json()) as Doc;
  const documented = Object.entries(doc.paths)
    .filter(([path, ops]) => ops.get && !path.includes("{"))
    .map(([path, ops]) => {
      const names = new Set((ops.get!.parameters ?? []).map((p) => p.name));
      const q = new URLSearchParams();
      if (names.has("block")) q.set("block", String(END));
      if (names.has("amount")) q.set("amount", "1000");
      if (names.has("below")) q.set("below", "1.1");
      return `${path}${q.size ? `?${q}` : ""}`;
    });
  const signed = (await (await fetch(`${api}/api/por/signed`)).json()) as { attestation_hash: string };
  // The page is served at / when web/dist is built.
  const page = (await fetch(`${api}/`, { method: "HEAD" })).status === 200 ? ["/"] : [];
  return [
    ...documented,
    `/api/por/signed/${signed.attestation_hash}`,
    "/api/openapi.json",
    "/paid/openapi.json",
    "/.well-known/security.txt",
    "/graphql?query=%7B__typename%7D",
    ...page,
    "/metrics",
    "/health",
    "/ready",
    "/status",
  ];
}

describe("304 Not Modified", () => {
  it("keeps ETag and Cache-Control and has no Content-Type or Content-Length", async () => {
    let checked = 0;
    for (const path of ["/api/por", `/api/por?block=${END}`, "/api/stats", "/api/por/signed"]) {
      const first = await fetch(`${api}${path}`, { headers: identity });
      expect(first.status, path).toBe(200);
      await first.arrayBuffer();
      const etag = first.headers.get("ETag");
      expect(etag, path).toBeTruthy();
      const again = await fetch(`${api}${path}`, { headers: { ...identity, "If-None-Match": etag! } });
      // The head may have moved between the two requests (a new block): then a 200 with a new tag.
      if (again.headers.get("ETag") !== etag) continue;
      expect(again.status, path).toBe(304);
      expect(again.headers.get("Cache-Control"), path).toBe(first.headers.get("Cache-Control"));
      expect(again.headers.get("Content-Type"), path).toBeNull();
      expect(again.headers.get("Content-Length"), path).toBeNull();
      expect(await again.text(), path).toBe("");
      checked++;
    }
    // The pinned report and the stored statement do not move with the head.
    expect(checked).toBeGreaterThanOrEqual(2);
  });
});

describe("HEAD", () => {
  it("every GET route answers HEAD with the GET's status and the Content-Length of the body GET sends", async () => {
    const routes = await getRoutes();
    const checked: string[] = [];
    const moving: string[] = [];
    for (const path of routes) {
      const get = async () => {
        const r = await fetch(`${api}${path}`, { headers: identity });
        return { status: r.status, bytes: new Uint8Array(await r.arrayBuffer()) };
      };
      const before = await get();
      const head = await fetch(`${api}${path}`, { method: "HEAD", headers: identity });
      const after = await get();
      expect(head.status, path).toBe(before.status);
      expect(await head.text(), path).toBe("");
      const length = head.headers.get("Content-Length");
      expect(length, `${path}: HEAD has a Content-Length`).toMatch(/^\d+$/);
      // A body that did not change around the HEAD must have the HEAD's length; one that moves
      // with every request (/metrics counts them) has no single length to compare with.
      if (Buffer.from(before.bytes).equals(Buffer.from(after.bytes))) {
        expect(Number(length), path).toBe(before.bytes.byteLength);
        checked.push(`${path} ${length}`);
      } else moving.push(path);
    }
    console.log(`HEAD Content-Length equal to the GET body on ${checked.length} routes; moving: ${moving.join(", ")}`);
    expect(checked.length).toBeGreaterThan(routes.length / 2);
  });
});

describe("405 with Allow", () => {
  it("every known GET path refuses another method naming GET and HEAD, Ponder's own routes included", async () => {
    // POST /metrics was a 404: Ponder serves GET /metrics before the app, which did not know the path.
    const routes = await getRoutes();
    for (const url of routes) {
      const path = url.split("?")[0]!;
      if (path === "/graphql") continue; // POST is GraphQL's own; checked below
      // Methods no route of this API serves (POST is some paths' own: the admin's /api/por/signed).
      for (const method of ["PUT", "DELETE", "PATCH"]) {
        const res = await fetch(`${api}${path}`, { method });
        expect(res.status, `${method} ${path}`).toBe(405);
        const allow = (res.headers.get("Allow") ?? "").split(/,\s*/);
        expect(allow, `${method} ${path}`).toEqual(expect.arrayContaining(["GET", "HEAD"]));
        expect(((await res.json()) as { error: { code: string } }).error.code).toBe("method_not_allowed");
      }
    }
    const graphql = await fetch(`${api}/graphql`, { method: "DELETE" });
    expect(graphql.status).toBe(405);
    expect(graphql.headers.get("Allow")!.split(/,\s*/)).toEqual(expect.arrayContaining(["GET", "HEAD", "POST"]));
    const metrics = await fetch(`${api}/metrics`, { method: "POST" });
    expect([metrics.status, metrics.headers.get("Allow")]).toEqual([405, "GET, HEAD"]);
  });

  it("the paid answers refuse HEAD, and their Allow never offers it", async () => {
    for (const [method, path, allow] of [
      ["HEAD", "/paid/reserves", "GET"],
      ["POST", "/paid/reserves", "GET"],
      ["HEAD", "/paid/instant-read", "POST"],
      ["GET", "/paid/instant-read", "POST"],
    ] as const) {
      const res = await fetch(`${api}${path}`, { method });
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers.get("Allow"), `${method} ${path}`).toBe(allow);
    }
  });
});

describe("an underfunded payer", () => {
  const usdcOf = (a: Address) => usdcBalance(s, a);

  it("gets a valid x402 402 saying insufficient funds with its balance and the price, and nothing is charged", async () => {
    const challenge = await fetch(`${api}/paid/reserves`);
    expect(challenge.status).toBe(402);
    const offered = decodePaymentRequiredHeader(challenge.headers.get("PAYMENT-REQUIRED")!);
    const terms = offered.accepts[0]!;
    const price = BigInt(terms.amount);
    // 0.10 USDC against a price of 0.25.
    const agent = await fundedAgent(s, "underfunded", 0.1);
    const balance = await usdcOf(agent.address);
    expect(balance).toBeLessThan(price);
    const nonce = `0x${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("hex")}` as Hex;
    const recipientBefore = await usdcOf(recipient);

    const res = await fetch(`${api}/paid/reserves`, {
      headers: { "PAYMENT-SIGNATURE": await paymentHeader(agent.key, terms, { nonce }) },
    });
    expect(res.status).toBe(402);
    const required = decodePaymentRequiredHeader(res.headers.get("PAYMENT-REQUIRED")!);
    // Still x402's PaymentRequired: the same terms, with the reason in `error`.
    expect(PaymentRequiredV2Schema.safeParse(required).success).toBe(true);
    expect(required.accepts).toEqual(offered.accepts);
    const units = (n: bigint) => `${formatUnits(n, 6)} USDC (${n} units)`;
    expect(required.error).toBe(
      `insufficient_funds: the payer ${agent.address} holds ${units(balance)} of ${USDC}; the price is ${units(price)}`,
    );
    console.log(`402 error: ${required.error}`);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("payment_rejected");
    expect(body.error.message).toContain(required.error!);

    // Nothing charged: both balances as they were, and the authorization never used.
    expect(await usdcOf(agent.address)).toBe(balance);
    expect(await usdcOf(recipient)).toBe(recipientBefore);
    const used = await s.client.readContract({
      address: USDC,
      abi: fiatTokenV2Abi,
      functionName: "authorizationState",
      args: [agent.address, nonce],
    });
    expect(used).toBe(false);
  });
});
