/**
 * The GraphQL API against the indexed devnet: results equal direct SQL over the same tables,
 * pagination walks every row exactly once, batching keeps the SQL count flat, limits refuse
 * abusive queries with a GraphQL error, and the reports equal their REST twins. With
 * DATABASE_URL set, the standalone read replica answers the same, in process.
 */

import { type ServerType, serve } from "@hono/node-server";
import { readServiceEnv } from "@kusd/config";
import { networkDocument, selectNetwork } from "@kusd/config/node";
import { asc, eq } from "drizzle-orm";
import { getAddress, parseEther } from "viem";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { kusdAbi, kusdpsmAbi } from "../../abis/index.js";
import { createFacilitatorClient } from "../../api/paid/facilitator.js";
import { facilitatorServer } from "../../api/paid/facilitator-server.js";
import { createReplicaApp } from "../../api/replica-app.js";
import { freePort } from "../helpers/ports.js";
import { stack } from "../helpers/stack.js";

const s = stack();
const d = s.deployment;
type Result = {
  data?: any;
  errors?: { message: string; extensions?: Record<string, unknown> }[];
  extensions?: { sqlQueries?: number };
};
const gql = async (query: string, variables: Record<string, unknown> = {}): Promise<Result> => {
  const res = await fetch(`${s.indexerUrl}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query, variables }),
  });
  expect(res.status).toBeLessThan(500);
  return (await res.json()) as Result;
};
const ok = async (query: string, variables: Record<string, unknown> = {}) => {
  const r = await gql(query, variables);
  expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
  return r;
};
const END = d.chains.base.historyEndBlock;

/** Every node of a connection, page by page. */
async function walk(field: string, selection: string, args: string, pageSizeN: number) {
  const nodes: any[] = [];
  let after: string | null = null;
  let pages = 0;
  do {
    const r = await ok(
      `query($after: String) { ${field}(${args} first: ${pageSizeN}, after: $after) { nodes { ${selection} } pageInfo { hasNextPage endCursor } } }`,
      { after },
    );
    const conn = r.data[field];
    nodes.push(...conn.nodes);
    after = conn.pageInfo.hasNextPage ? conn.pageInfo.endCursor : null;
    pages++;
  } while (after);
  return { nodes, pages };
}

describe("connections equal direct SQL", () => {
  it("psmSwaps: a walk in pages of 7 visits every row exactly once, in (block, log index) order", async () => {
    const range = `filter: { range: { toBlock: "${END}" } },`;
    const { nodes, pages } = await walk("psmSwaps", "id blockNumber logIndex", range, 7);
    const rows = await s.db
      .select()
      .from(s.schema.psmSwap)
      .orderBy(asc(s.schema.psmSwap.blockNumber), asc(s.schema.psmSwap.logIndex));
    const expected = rows.filter((r) => r.blockNumber <= BigInt(END)).map((r) => r.id);
    expect(nodes.map((n) => n.id)).toEqual(expected);
    expect(new Set(nodes.map((n) => n.id)).size).toBe(nodes.length);
    // hasNextPage is exact (one row past the page is fetched), so no empty last page even when 7 divides the count.
    expect(pages).toBe(Math.ceil(expected.length / 7));
    const backwards = await walk("psmSwaps", "id", `${range} orderDirection: DESC,`, 11);
    expect(backwards.nodes.map((n) => n.id)).toEqual([...expected].reverse());
  });

  it("filters by redeemer, direction and amount like the equivalent SQL", async () => {
    const founder = d.accounts.operator!.address;
    const r = await ok(
      `{ psmSwaps(first: 500, filter: { user: "${founder}", direction: redeem, minKusd: "12000000000000000000000" }) { nodes { id kusdAmount user { address } } } }`,
    );
    const rows = await s.db
      .select()
      .from(s.schema.psmSwap)
      .where(eq(s.schema.psmSwap.user, founder.toLowerCase() as `0x${string}`));
    const expected = rows
      .filter((x) => x.direction === "redeem" && x.kusdAmount >= parseEther("12000"))
      .map((x) => x.id)
      .sort();
    expect(r.data.psmSwaps.nodes.map((n: any) => n.id).sort()).toEqual(expected);
    expect(expected.length).toBeGreaterThan(0);
    expect(r.data.psmSwaps.nodes.every((n: any) => n.user.address === getAddress(founder))).toBe(true);
  });

  it("registryTransfers, vaultEvents, roleEvents and sharePrices match their tables", async () => {
    const t = await walk("registryTransfers", "id classification", `filter: { range: { toBlock: "${END}" } },`, 500);
    const tRows = (await s.db.select().from(s.schema.registryTransfer)).filter((x) => x.blockNumber <= BigInt(END));
    expect(t.nodes.map((n) => n.id).sort()).toEqual(tRows.map((x) => x.id).sort());
    const violations = await ok(
      `{ registryTransfers(filter: { classification: "violation", range: { toBlock: "${END}" } }) { nodes { txHash } } }`,
    );
    expect(violations.data.registryTransfers.nodes.map((n: any) => n.txHash)).toEqual([d.landmarks.violation!.tx]);

    const skUSD = await walk(
      "vaultEvents",
      "id kind",
      `filter: { vault: [skUSD], range: { toBlock: "${END}" } },`,
      500,
    );
    const vRows = (
      await s.db.select().from(s.schema.vaultEvent).where(eq(s.schema.vaultEvent.vaultKey, "skUSD"))
    ).filter((x) => x.blockNumber <= BigInt(END));
    expect(skUSD.nodes.map((n) => n.id).sort()).toEqual(vRows.map((x) => x.id).sort());

    const minter = await ok(
      `{ roleEvents(filter: { roleName: "MINTER_ROLE", contractKey: "kUSD" }) { nodes { account granted blockNumber } } }`,
    );
    const grants = d.roles.filter((x) => x.role === "MINTER_ROLE");
    expect(minter.data.roleEvents.nodes.filter((n: any) => n.granted).length).toBe(grants.length);

    const prices = await walk(
      "sharePrices",
      "vaultKey assetsPerShare blockNumber",
      `vault: skUSD, range: { toBlock: "${END}" },`,
      500,
    );
    const pRows = (
      await s.db.select().from(s.schema.sharePrice).where(eq(s.schema.sharePrice.vaultKey, "skUSD"))
    ).filter((x) => x.blockNumber <= BigInt(END));
    expect(prices.nodes.length).toBe(pRows.length);
  });
});

describe("aggregates", () => {
  it("psmVolume by month and redemptionsByRedeemer equal a grouping of the rows", async () => {
    const rows = (await s.db.select().from(s.schema.psmSwap)).filter((x) => x.blockNumber <= BigInt(END));
    const r = await ok(
      `{ psmVolume(interval: MONTH, range: { toBlock: "${END}" }) { period psmKey direction count usdcTotal kusdTotal } redemptionsByRedeemer(range: { toBlock: "${END}" }) { redeemer { address } count kusdTotal } }`,
    );
    const byMonth = new Map<string, { count: number; usdc: bigint; kusd: bigint }>();
    for (const x of rows) {
      const k = `${new Date(Number(x.timestamp) * 1000).toISOString().slice(0, 7)}-01|${x.psmKey}|${x.direction}`;
      const b = byMonth.get(k) ?? { count: 0, usdc: 0n, kusd: 0n };
      byMonth.set(k, { count: b.count + 1, usdc: b.usdc + x.usdcAmount, kusd: b.kusd + x.kusdAmount });
    }
    expect(r.data.psmVolume).toHaveLength(byMonth.size);
    for (const b of r.data.psmVolume) {
      const e = byMonth.get(`${b.period}|${b.psmKey}|${b.direction}`)!;
      expect({ count: b.count, usdc: BigInt(b.usdcTotal), kusd: BigInt(b.kusdTotal) }).toEqual(e);
    }
    const redeemers = new Map<string, bigint>();
    for (const x of rows.filter((x) => x.direction === "redeem"))
      redeemers.set(x.user, (redeemers.get(x.user) ?? 0n) + x.kusdAmount);
    expect(
      r.data.redemptionsByRedeemer.map((x: any) => [x.redeemer.address.toLowerCase(), BigInt(x.kusdTotal)]),
    ).toEqual([...redeemers].sort((a, b) => (b[1] > a[1] ? 1 : b[1] < a[1] ? -1 : a[0] < b[0] ? -1 : 1)));
  });
});

describe("production posture", () => {
  const nested =
    "psm { key swapStats { mints redemptions } } user { address redemptionSummary { count kusdTotal } shareBalances { vaultKey shares } tokenBalances { tokenSymbol balance } }";

  it("a page of swaps with their PSM and redeemer costs the same few SQL statements at any size (no N+1)", async () => {
    const small = await ok(`{ psmSwaps(first: 5) { nodes { id ${nested} } } }`);
    const big = await ok(`{ psmSwaps(first: 100) { nodes { id ${nested} } } }`);
    expect(big.data.psmSwaps.nodes.length).toBeGreaterThan(small.data.psmSwaps.nodes.length);
    expect(big.extensions?.sqlQueries).toBe(small.extensions?.sqlQueries);
    expect(big.extensions?.sqlQueries).toBeLessThanOrEqual(5); // the page + one per batched field
  });

  it("refuses an oversized page, a deep query and alias flooding with a GraphQL error, not a crash", async () => {
    const page = await gql(`{ psmSwaps(first: 1001) { nodes { id } } }`);
    expect(page.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
    expect(page.errors?.[0]?.message).toMatch(/first must be between 1 and 1000/);
    // The schema has no legitimate path deeper than 6; anything past the limit (10) is refused.
    const deep = await gql(
      `{ psmSwaps { edges { node { user { shareBalances { vault { a { b { c { d { e { f } } } } } } } } } } } }`,
    );
    expect(deep.errors?.some((e) => /depth/i.test(e.message))).toBe(true);
    const aliases = await gql(`{ ${Array.from({ length: 20 }, (_, i) => `a${i}: psms { key }`).join(" ")} }`);
    expect(aliases.errors?.[0]?.message).toMatch(/alias/i);
    const badCursor = await gql(`{ psmSwaps(after: "nope") { nodes { id } } }`);
    expect(badCursor.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
    const badAddress = await gql(`{ psmSwaps(filter: { user: "0x123" }) { nodes { id } } }`);
    expect(badAddress.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
  });

  it("serves BigInt amounts as decimal strings", async () => {
    const r = await ok(`{ psmSwaps(first: 1) { nodes { usdcAmount kusdAmount fee blockNumber } } }`);
    for (const v of Object.values(r.data.psmSwaps.nodes[0])) expect(v).toMatch(/^\d+$/);
  });
});

describe("reports in GraphQL equal the REST documents", () => {
  it("reserves(block), stats(block), accountRegistry(version) and the latest signed statement", async () => {
    const r = await ok(
      `{ reserves(block: "${END}") { blockNumber document } stats(block: "${END}") { psmUSDC kusdOutstanding kusdSupplyWei } accountRegistry(version: 5) { accountSetDigest document } signedStatement { attestationHash artifact } }`,
    );
    const por = await (await fetch(`${s.indexerUrl}/api/por?block=${END}`)).json();
    const { attestation: _a, ...docRest } = r.data.reserves.document;
    const { attestation: _b, ...porRest } = por as any;
    expect(docRest).toEqual(porRest); // attestation.rpcChainLength is read at request time
    const stats = (await (await fetch(`${s.indexerUrl}/api/stats?block=${END}`)).json()) as any;
    expect(r.data.stats).toEqual({
      psmUSDC: stats.psmUSDC,
      kusdOutstanding: stats.kusdOutstanding,
      kusdSupplyWei: stats.kusdSupplyWei,
    });
    const registry = await (await fetch(`${s.indexerUrl}/api/por/accounts?version=5`)).json();
    expect(r.data.accountRegistry.document).toEqual(registry);
    const signed = (await (await fetch(`${s.indexerUrl}/api/por/signed`)).json()) as any;
    expect(JSON.parse(r.data.signedStatement.artifact).attestation_hash).toBe(signed.attestation_hash);
    const bad = await gql(`{ reserves(block: "99999999") { blockNumber } }`);
    expect(bad.errors?.[0]?.extensions).toMatchObject({ code: "BAD_USER_INPUT", reason: "block_not_indexed" });
  });
});

describe("subscriptions", () => {
  it("streams a live redemption", async () => {
    await s.caughtUp();
    const controller = new AbortController();
    const res = await fetch(`${s.indexerUrl}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "text/event-stream" },
      body: JSON.stringify({ query: "subscription { redemptions { kind swap { txHash kusdAmount psm { key } } } }" }),
      signal: controller.signal,
    });
    const reader = res.body!.getReader();
    await new Promise((r) => setTimeout(r, 300));
    const wallet = s.wallet(d.accounts.operator!.privateKey);
    await s.client.waitForTransactionReceipt({
      hash: await wallet.writeContract({
        address: s.addr("kUSD"),
        abi: kusdAbi,
        functionName: "approve",
        args: [s.addr("psmMint"), parseEther("1")],
      }),
    });
    const hash = await wallet.writeContract({
      address: s.addr("psmMint"),
      abi: kusdpsmAbi,
      functionName: "swapKUSDForStable",
      args: [s.addr("usdc"), parseEther("1")],
    });
    await s.client.waitForTransactionReceipt({ hash });
    let text = "";
    const deadline = Date.now() + 20_000;
    while (!text.includes(hash) && Date.now() < deadline) text += new TextDecoder().decode((await reader.read()).value);
    expect(text).toContain(hash);
    controller.abort();
  }, 30_000);
});

describe.runIf(inject("database") === "postgres")("standalone read replica (PostgreSQL)", () => {
  // A replica settles through a facilitator process (api/replica-app.ts): one in process here, on
  // the devnet's gas key; these tests only ask it for its terms, they settle nothing.
  let facilitator: { server: ServerType; url: string } | null = null;
  beforeAll(async () => {
    const pay = selectNetwork(readServiceEnv(process.env)).payments;
    if (pay.facilitator?.kind !== "local" || !pay.recipient)
      throw new Error("the devnet has an in-process facilitator");
    const port = await freePort();
    const app = facilitatorServer({
      facilitator: createFacilitatorClient({ ...pay.facilitator, network: pay.network }),
      recipient: pay.recipient,
      asset: pay.asset.address,
      network: pay.network,
    });
    facilitator = { server: serve({ fetch: app.fetch, port, hostname: "127.0.0.1" }), url: `http://127.0.0.1:${port}` };
  });
  afterAll(() => new Promise<void>((r) => (facilitator ? facilitator.server.close(() => r()) : r())));
  const replica = () =>
    createReplicaApp({
      env: {
        ...readServiceEnv(process.env),
        KUSD_X402_FACILITATOR_URL: facilitator!.url,
        DATABASE_URL: process.env.DATABASE_URL!,
        KUSD_VIEWS_SCHEMA: inject("viewsSchema"),
        KUSD_SITE_URL: "http://replica.test",
        KUSD_STORE_SCHEMA: inject("storeSchema"),
        KUSD_CHECK_RESPONSES: true,
      },
      network: selectNetwork({ ...readServiceEnv(process.env), KUSD_X402_FACILITATOR_URL: facilitator!.url }),
      networkDocument: networkDocument(readServiceEnv(process.env)),
    });

  it("answers in process from the views schema exactly as the indexer's API does", async () => {
    const { app, close } = replica();
    try {
      const query = `{ psmSwaps(first: 50, filter: { range: { toBlock: "${END}" } }) { nodes { id usdcAmount user { redemptionSummary { count } } } } violations(filter: { range: { toBlock: "${END}" } }) { nodes { txHash } } }`;
      const local = (await (
        await app.request("/graphql", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ query }),
        })
      ).json()) as Result;
      const remote = await ok(query);
      expect(local.errors).toBeUndefined();
      expect(local.data).toEqual(remote.data);
      const stats = await app.request(`/api/stats?block=${END}`);
      expect(await stats.json()).toMatchObject({ blockNumber: END });
    } finally {
      await close();
    }
  });

  it("serves the same routes as the indexer's API: every GET route answers both alike", async () => {
    const { app, close } = replica();
    try {
      const gets = [
        ...new Set(app.routes.filter((r) => r.method === "GET" && !/[:*]/.test(r.path)).map((r) => r.path)),
      ];
      for (const path of [
        "/api/por",
        "/api/apy",
        "/api/euler",
        "/api/hedge-ledger",
        "/api/por/accounts",
        "/api/events",
        "/paid/openapi.json",
      ]) {
        expect(
          gets.some((g) => g === path || g.startsWith(`${path}`)),
          path,
        ).toBe(true);
      }
      const differing: string[] = [];
      for (const path of gets) {
        const url = path.includes("?") ? path : `${path}${path.startsWith("/api/") ? `?block=${END}` : ""}`;
        const [local, remote] = await Promise.all([
          Promise.resolve(app.request(url)).then((r) => r.status),
          fetch(`${inject("indexerUrl")}${url}`).then((r) => r.status),
        ]);
        if (local !== remote) differing.push(`${url}: replica ${local}, indexer ${remote}`);
      }
      expect(differing).toEqual([]);
      // The documented route tables are the same document.
      const [localDoc, remoteDoc] = await Promise.all([
        Promise.resolve(app.request("/api/openapi.json")).then((r) => r.json()),
        fetch(`${inject("indexerUrl")}/api/openapi.json`).then((r) => r.json()),
      ]);
      expect((localDoc as { paths: object }).paths).toEqual((remoteDoc as { paths: object }).paths);
    } finally {
      await close();
    }
  });
});
