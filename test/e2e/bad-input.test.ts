/**
 * Bad input found by an outside test of the running stack, each now a 4xx JSON answer (or the
 * right 200) instead of a 5xx: malformed GraphQL GET parameters, unknown paths and methods
 * outside /api, requests Node's HTTP parser refuses, and a redemption plan at a block where a PSM did not exist yet.
 */
import { connect } from "node:net";
import { readServiceEnv } from "@kusd/config";
import { selectNetwork } from "@kusd/config/node";
import { and, eq } from "drizzle-orm";
import { keccak256, parseAbiItem, stringToHex } from "viem";
import { describe, expect, it } from "vitest";
import { stack } from "../helpers/stack.js";

const s = stack();
const network = selectNetwork(readServiceEnv(process.env));
const get = (path: string, init?: RequestInit) => fetch(`${s.indexerUrl}${path}`, init);

describe("GraphQL over GET with malformed parameters", () => {
  it("variables or extensions that are not JSON → 400 in GraphQL's error shape, no stack, no server path", async () => {
    for (const q of ["variables=%7Bbad", "extensions=%5B1", "variables=%7B%22a%22%3A"]) {
      const res = await get(`/graphql?query=%7B__typename%7D&${q}`, { headers: { accept: "application/json" } });
      expect(res.status, q).toBe(400);
      const text = await res.text();
      expect(JSON.parse(text)).toMatchObject({ errors: [{ extensions: { code: "BAD_REQUEST" } }] });
      expect(text).not.toMatch(/at |node_modules|\/work\/|SyntaxError/);
    }
  });

  it("PUT /graphql → 405 JSON with Allow", async () => {
    const res = await get("/graphql", { method: "PUT", body: "{}", headers: { "content-type": "application/json" } });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toMatch(/GET/);
    expect(await res.json()).toMatchObject({ error: { code: "method_not_allowed" } });
  });
});

describe("every non-2xx is JSON", () => {
  it("unknown paths outside /api → the JSON 404 (the page's missing assets too)", async () => {
    for (const path of [
      "/nope",
      "/paid/nope",
      "/.env",
      "/sql",
      "/assets/nope.js",
      "/assets/../package.json",
      "/index.html",
    ]) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get("content-type")).toMatch(/application\/json/);
      expect(await res.json()).toMatchObject({ error: { code: "not_found" } });
    }
  });

  it("requests Node's parser refuses (a malformed header line, headers over its limit) → 400 / 431 JSON from Ponder's server", async () => {
    const port = Number(new URL(s.indexerUrl).port);
    const raw = (bytes: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(port, "127.0.0.1", () => socket.write(bytes));
        let out = "";
        socket.on("data", (d) => (out += d));
        socket.on("end", () => resolve(out));
        socket.on("error", reject);
      });
    const json = (answer: string) => JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4));
    const malformed = await raw("GET /api/stats HTTP/1.1\r\nHost: x\r\nnot a header\r\n\r\n");
    expect(malformed).toMatch(/^HTTP\/1\.1 400 [\s\S]*content-type: application\/json/i);
    expect(json(malformed).error.code).toBe("malformed_request");
    const huge = await raw(`GET /api/stats HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`);
    expect(huge).toMatch(/^HTTP\/1\.1 431 /);
    expect(json(huge).error.code).toBe("request_header_fields_too_large");
  });
});

describe("/api/por/redemption-plan before every PSM existed", () => {
  it("answers what was redeemable then, leaving out a PSM that had no code at the block", async () => {
    const kusdStart = BigInt(network.kUSD.startBlock);
    const psm = Object.entries(network.psms)
      .map(([key, d]) => ({ key, ...d }))
      .sort((a, b) => b.startBlock - a.startBlock)[0]!;
    const block = BigInt(psm.startBlock) - 1n;
    expect(block).toBeGreaterThanOrEqual(kusdStart);
    // Independent: the chain itself says the latest PSM had no code then.
    expect(await s.client.getCode({ address: psm.address, blockNumber: block })).toBeUndefined();
    const res = await get(`/api/por/redemption-plan?amount=1&block=${block}`);
    expect(res.status).toBe(200);
    const plan = (await res.json()) as { transactions: { psm: string }[]; blockNumber: number };
    expect(plan.blockNumber).toBe(Number(block));
    expect(plan.transactions.map((t) => t.psm)).not.toContain(psm.key);
  });
});

describe("PSM role texts at a past block follow the chain", () => {
  it("the prior mint PSM, before its MINTER_ROLE was revoked, is reported as minting, as hasRole says", async () => {
    const role = keccak256(stringToHex("MINTER_ROLE"));
    const psm = network.psms.psmRetiredMint.address;
    const events = await s.db
      .select()
      .from(s.schema.roleEvent)
      .where(
        and(eq(s.schema.roleEvent.role, role), eq(s.schema.roleEvent.account, psm.toLowerCase() as `0x${string}`)),
      );
    const granted = events.find((e) => e.granted);
    const revoked = events.find((e) => !e.granted);
    expect(granted && revoked).toBeTruthy();
    const block = revoked!.blockNumber - 1n;
    const hasRole = await s.client.readContract({
      address: network.kUSD.address,
      abi: [parseAbiItem("function hasRole(bytes32,address) view returns (bool)")],
      functionName: "hasRole",
      args: [role, psm],
      blockNumber: block,
    });
    expect(hasRole).toBe(true);
    const before = (await (await get(`/api/por?block=${block}`)).json()) as {
      reserves: { psmRetiredMint: { role: string } };
    };
    expect(before.reserves.psmRetiredMint.role).toMatch(/^mints kUSD/);
    const after = (await (await get(`/api/por?block=${revoked!.blockNumber}`)).json()) as {
      reserves: { psmRetiredMint: { role: string } };
    };
    expect(after.reserves.psmRetiredMint.role).toMatch(/^redeem-only/);
  });
});
