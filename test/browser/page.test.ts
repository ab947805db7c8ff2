/**
 * The reserves page in a real browser: its figures equal GET /api/por at the block it shows, the
 * chart has the history's points, the signed statement verifies green in the page and red when
 * a byte of it is changed in transit, the block picker loads a past block, a copy button copies
 * the figure's cast command, and a live violation appears and is retracted after a reorg. The
 * yield section shows /api/apy's headline and /api/hedge-ledger's months; the figure check
 * re-derives the statement and both reports from the devnet's RPC and venue, in the page, and
 * with the devnet's Ethereum RPC proves the statement's block from the roots posted there (pending
 * until the proposer's game covers it, then proven), as the factory's games read with eth_call say.
 * A full-page screenshot is written to test-results/reserves-page.png.
 */
import { mkdirSync } from "node:fs";
import { AxeBuilder } from "@axe-core/playwright";
import { BASE_PROOF_SYSTEM, GAME_STATUS, STATEMENT_COPIES, signPayload, withSignedCopies } from "@kusd/core";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { createPublicClient, http, type PublicClient, parseEther, toHex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { aggregateVerifierAbi, anchorStateRegistryAbi, weth9Abi } from "../../abis/index.js";
import { devnetChain } from "../../devnet/chains.js";
import { devnetKey } from "../../devnet/keys.js";
import { type GameRecord, gameCount, readGames } from "../../devnet/proofs/games.js";
import { DEVNET_PROOF_PARAMS, PROOF_KEYS } from "../../devnet/proofs/params.js";
import { launchChromium } from "../helpers/browser.js";
import { scrollThrough } from "../helpers/scroll-through.js";
import { stack } from "../helpers/stack.js";

const s = stack();
let browser: Browser;
let context: BrowserContext;

const api = async (path: string) => (await fetch(`${s.indexerUrl}${path}`)).json() as Promise<any>;
const value = async (page: Page, testId: string) => page.getAttribute(`[data-testid="${testId}"]`, "data-value");
const num = async (page: Page, testId: string) => Number(await value(page, testId));

/** Opens the page, waits until the report, the chart and the verification have rendered, then scrolls through it so every section is there. */
async function open(path = "/") {
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  page.on("console", (m) => m.type() === "error" && problems.push(`console: ${m.text()}`));
  recordServed(page);
  await page.goto(`${s.indexerUrl}${path}`);
  await page.waitForSelector('[data-testid="report-block"]');
  await page.waitForSelector('[data-testid="chart"] canvas');
  await page.waitForSelector('[data-testid="verification"]:not([data-verified="pending"])');
  await scrollThrough(page);
  return { page, problems };
}

/** Every document of these routes the page received, by route: the exact reports it rendered. */
const SERVED_PATHS = ["/api/por", "/api/apy", "/api/hedge-ledger"];
const pagesServed = new WeakMap<Page, Map<string, any[]>>();

function recordServed(page: Page) {
  const served = new Map<string, any[]>(SERVED_PATHS.map((p) => [p, []]));
  page.on("response", async (r) => {
    const path = new URL(r.url()).pathname;
    if (r.url().startsWith(s.indexerUrl) && served.has(path) && r.ok())
      served.get(path)!.push(await r.json().catch(() => null));
  });
  pagesServed.set(page, served);
}
const servedTo = (page: Page, path: string) => pagesServed.get(page)!.get(path)!;

/**
 * The page's figures against /api/por read again at the block it shows. The aggregate ratio
 * (and the status it may decide) counts the venue's equity, read live at the head, so it is
 * checked against the very document the page received; every chain figure against the new read.
 */
async function expectFiguresEqualReport(page: Page) {
  const block = Number(await value(page, "report-block"));
  const por = await api(`/api/por?block=${block}`);
  const served = servedTo(page, "/api/por")
    .filter((d) => d?.blockNumber === block)
    .at(-1);
  expect(served, "the page rendered a report it was served").toBeDefined();
  expect(await value(page, "status")).toBe(served.solvency.status);
  expect(await num(page, "aggregate-ratio")).toBe(served.solvency.aggregateCollateralRatio);
  expect(await num(page, "psm-ratio")).toBe(por.solvency.psmSolvencyRatio);
  expect(await num(page, "outstanding")).toBe(por.liabilities.kUSD.outstanding);
  expect(await num(page, "psm-usdc-total")).toBe(por.reserves.psm.usdcHeld);
  for (const k of ["psmMint", "psmRetiredMint", "psmRedeemReserve"])
    expect(await num(page, `psm-usdc-${k}`), k).toBe(por.reserves[k].usdcHeld);
  expect(await num(page, "instant-capacity")).toBe(por.redemptionDepth.instantSingleTransactionUSDC);
  expect(await num(page, "total-capacity")).toBe(por.redemptionDepth.totalReachableUSDC);
  expect(await num(page, "precedent-count")).toBe(por.redemptionDepth.precedent.executedRedemptions);
  expect(await page.locator('[data-testid="precedent-row"]').count()).toBe(
    por.redemptionDepth.precedent.transactions.length,
  );
  // Mint readiness and the switches out of their safe state, from the operator's two surfaces.
  await page.waitForSelector('[data-testid="risk-overall"]');
  const [psm, risk] = await Promise.all([
    api(`/api/psm-status?block=${block}`),
    api(`/api/risk-status?block=${block}`),
  ]);
  expect(await value(page, "risk-overall")).toBe(risk.overall);
  expect(await value(page, "psm-ready")).toBe(String(psm.ready));
  expect(await num(page, "psm-headroom")).toBe(psm.gates.headroomUSDC);
  expect(await page.locator('[data-testid="unsafe-trigger"]').count()).toBe(
    [...risk.triggers.onChain, ...risk.triggers.offChain].filter((t: any) => t.safe === false).length,
  );
  // The visible text, not only the attribute: the ratio as a percentage.
  expect(await page.textContent('[data-testid="psm-ratio"]')).toBe(
    `${(por.solvency.psmSolvencyRatio * 100).toFixed(2)}%`,
  );
  return block;
}

beforeAll(async () => {
  await s.caughtUp();
  await s.statementPublished();
  browser = await launchChromium();
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: s.indexerUrl });
});

afterAll(async () => {
  await browser?.close();
});

describe("the reserves page", () => {
  it("shows /api/por's figures at its block, the history chart, and verifies the live statement green", async () => {
    const { page, problems } = await open();
    const block = await expectFiguresEqualReport(page);
    const history = await api(`/api/history?interval=DAY&toBlock=${block}`);
    expect(history.points.length).toBeGreaterThan(5);
    expect(Number(await page.getAttribute('[data-testid="chart"]', "data-points"))).toBe(history.points.length);
    // The legend shows the newest point until the cursor is on the chart.
    const newest = history.points.at(-1);
    const legend = await page.locator('[data-testid="chart"] .u-legend .u-value').allTextContents();
    expect(legend.slice(1)).toEqual(
      [newest.kusdOutstanding, newest.psmUSDC.total].map((v: number) => Math.round(v).toLocaleString("en-US")),
    );
    expect(await page.getAttribute('[data-testid="verification"]', "data-verified")).toBe("true");
    const signed = await api("/api/por/signed");
    expect(await page.textContent('[data-testid="verification"]')).toContain(signed.attestation_hash);
    for (const check of ["hash", "signature", "authorised-signer", "fresh", "binding"]) {
      expect(await page.getAttribute(`[data-testid="check-${check}"]`, "class"), check).toBe("good");
    }
    mkdirSync("test-results", { recursive: true });
    await page.screenshot({ path: "test-results/reserves-page.png", fullPage: true });
    expect(problems).toEqual([]);
    await page.close();
  });

  it("shows /api/apy's headline with its inputs and /api/hedge-ledger's months, the months past the fills kept marked", async () => {
    const { page, problems } = await open();
    await page.waitForSelector('[data-testid="yield"]');
    // Read once for the page: the documents it received are the ones it shows.
    const [apy] = servedTo(page, "/api/apy");
    const [ledger] = servedTo(page, "/api/hedge-ledger");
    expect(servedTo(page, "/api/apy")).toHaveLength(1);
    expect(servedTo(page, "/api/hedge-ledger")).toHaveLength(1);
    expect(apy.expectedAPY).toBeGreaterThan(0);
    expect(await num(page, "yield-apy")).toBe(apy.expectedAPY);
    expect(await page.textContent('[data-testid="yield-apy"]')).toBe(apy.expectedAPYPct);
    const input = (id: string) => num(page, `yield-input-${id}`);
    expect(await input("leverage")).toBe(apy.sources.leverage);
    expect(await input("carry")).toBe(apy.sources.carryMultiplier);
    expect(await input("funding")).toBe(apy.fundingRate);
    expect(await input("staking")).toBe(apy.stakingYield);
    expect(await input("strategy-cost")).toBe(apy.sources.strategyCostFraction);
    expect(await input("insurance")).toBe(apy.sources.insuranceAllocation);
    expect(await input("protocol-fee")).toBe(apy.protocolFee);
    // The headline again by hand from the inputs the page shows (spec 2.4's formula).
    const L = await input("leverage");
    expect(L).toBeCloseTo(Math.min(12, 1.5 + (await input("funding")) * 10), 5);
    const byHand =
      (L / (L + 1)) *
      ((await input("staking")) + (await input("funding"))) *
      (1 - (await input("strategy-cost"))) *
      (1 - (await input("insurance"))) *
      (1 - (await input("protocol-fee")));
    expect(byHand).toBeCloseTo(await num(page, "yield-apy"), 6);
    expect(await num(page, "yield-realized")).toBe(apy.realized.annualized);
    expect(await page.textContent('[data-testid="yield-realized"]')).toContain(`block ${apy.realized.fromBlock}`);

    const rows = await page.$$eval('[data-testid="ledger-row"]', (trs) =>
      trs.map((tr) => ({
        month: tr.getAttribute("data-month"),
        fundingUsd: Number(tr.getAttribute("data-funding")),
        feesUsd: Number(tr.getAttribute("data-fees")),
        closedPnlUsd: Number(tr.getAttribute("data-closed-pnl")),
        netUsd: Number(tr.getAttribute("data-net")),
        kept: tr.getAttribute("data-kept"),
      })),
    );
    expect(ledger.months.length).toBeGreaterThan(3);
    expect(rows.map(({ kept: _, ...m }) => m)).toEqual(
      ledger.months.map((m: any) => ({
        month: m.month,
        fundingUsd: m.fundingUsd,
        feesUsd: m.feesUsd,
        closedPnlUsd: m.closedPnlUsd,
        netUsd: m.netUsd,
      })),
    );
    // Spec 2.5 rule 1, by hand, on every row the page shows.
    for (const r of rows) expect(r.netUsd, r.month!).toBeCloseTo(r.fundingUsd + r.closedPnlUsd - r.feesUsd, 5);
    // The devnet's hedge trades past the venue's 10,000 fills: the months before the oldest kept fill are marked.
    const horizon: string = ledger.fillsRetention.horizonISO;
    expect(ledger.fillsRetention.complete).toBe(false);
    expect(rows.map((r) => r.kept)).toEqual(
      rows.map((r) => (r.month! < horizon.slice(0, 7) ? "gone" : r.month === horizon.slice(0, 7) ? "partly" : "kept")),
    );
    expect(await page.textContent('[data-testid="fills-retention"]')).toContain(horizon);
    expect(await page.textContent('[data-testid="yield"]')).toContain("not profit");
    expect(problems).toEqual([]);
    await page.close();
  });

  it("shows red with the reason when the statement's signed bytes are changed in transit", async () => {
    const page = await context.newPage();
    await page.route("**/api/por/signed", async (route) => {
      const res = await route.fetch();
      const artifact = JSON.parse(await res.text());
      // One figure inside the signed payload, changed: the hash no longer matches.
      artifact.signed_payload_canonical = artifact.signed_payload_canonical.replace(
        /"kusd_total_supply":(\d)/,
        (_m: string, d: string) => `"kusd_total_supply":${(Number(d) + 1) % 10}`,
      );
      await route.fulfill({ response: res, body: JSON.stringify(artifact) });
    });
    await page.goto(`${s.indexerUrl}/`);
    await page.waitForSelector('[data-testid="verification"]:not([data-verified="pending"])');
    expect(await page.getAttribute('[data-testid="verification"]', "data-verified")).toBe("false");
    expect(await page.getAttribute('[data-testid="check-hash"]', "class")).toBe("bad");
    expect(await page.textContent('[data-testid="verdict"]')).toMatch(/does not verify: hash/);
    await page.close();
  });

  it("shows red when the statement is signed by a key the binding does not name", async () => {
    const page = await context.newPage();
    // The operator pinned in the URL is not the one that signed the binding: nothing is trusted.
    await page.goto(`${s.indexerUrl}/?operator=${devnetKey("test:page-impostor").address}`);
    await page.waitForSelector('[data-testid="verification"]:not([data-verified="pending"])');
    expect(await page.getAttribute('[data-testid="verification"]', "data-verified")).toBe("false");
    expect(await page.getAttribute('[data-testid="check-binding"]', "class")).toBe("bad");
    await page.close();
  });

  it("loads a past block from the picker and from ?block=N, with figures of that block", async () => {
    const { page } = await open();
    const head = Number(await value(page, "report-block"));
    const past = head - 300;
    await page.fill('input[name="block"]', String(past));
    await page.click('form.picker button[type="submit"]');
    await page.waitForSelector(`[data-testid="report-block"][data-value="${past}"]`);
    expect(new URL(page.url()).searchParams.get("block")).toBe(String(past));
    await page.waitForSelector('[data-testid="chart"] canvas');
    expect(await expectFiguresEqualReport(page)).toBe(past);
    expect(await page.textContent('[data-testid="violations-live"]')).toContain("not live");
    await page.close();
    const direct = await open(`/?block=${past}`);
    expect(await expectFiguresEqualReport(direct.page)).toBe(past);
    await direct.page.close();
  });

  it("copies a figure's cast command, pinned to the report's block", async () => {
    const { page } = await open();
    const block = await value(page, "report-block");
    const button = page.locator('[data-testid="psm-usdc-psmMint"] button.copy');
    const command = await button.getAttribute("data-command");
    expect(command).toMatch(
      new RegExp(
        `^cast call 0x[0-9a-fA-F]{40} 'balanceOf\\(address\\)\\(uint256\\)' 0x[0-9a-fA-F]{40} --block ${block} `,
      ),
    );
    await button.click();
    await page.waitForSelector('[data-testid="psm-usdc-psmMint"] button.copy.copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(command);
    await page.close();
  });

  it("adds a live violation as it is indexed, and removes it when a reorg retracts it", async () => {
    const { page } = await open();
    await page.waitForSelector('[data-testid="violations-live"]:text("live")');
    const before = await page.locator('[data-testid="violation-row"]').count();
    const snapshot = await s.client.request({ method: "evm_snapshot" as never });
    const wallet = s.wallet(s.deployment.accounts.hedgeWatchOnly!.privateKey);
    const hash = await wallet.writeContract({
      address: s.addr("weth"),
      abi: weth9Abi,
      functionName: "transfer",
      args: [devnetKey("test:page-stranger").address, parseEther("0.01")],
    });
    await s.client.waitForTransactionReceipt({ hash });
    await page.waitForSelector(`[data-testid="violation-row"].fresh code[title="${hash}"]`, { timeout: 30_000 });
    expect(await page.locator('[data-testid="violation-row"]').count()).toBe(before + 1);
    await s.client.request({ method: "evm_revert" as never, params: [snapshot] as never });
    for (let i = 0; i < 3; i++) await s.client.request({ method: "evm_mine" as never });
    await page.waitForSelector(`code[title="${hash}"]`, { state: "detached", timeout: 30_000 });
    expect(await page.locator('[data-testid="violation-row"]').count()).toBe(before);
    await page.close();
  });

  describe("check every figure against your own RPC (issue 39)", () => {
    /** The venue as a reader names it: the devnet's simulator, which the network document names too. */
    const venue = `${s.deployment.venue.url}/info`;
    const reader = `rpc=${encodeURIComponent(s.rpcUrl)}&venue=${encodeURIComponent(venue)}`;

    /** Opens the page with `?rpc=` (as its form does) and waits for the table. */
    async function check(query: string, route?: (page: Page) => Promise<unknown>) {
      const page = await context.newPage();
      const problems: string[] = [];
      page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
      recordServed(page);
      await route?.(page);
      await page.goto(`${s.indexerUrl}/?${query}`);
      await page.waitForSelector('[data-testid="figures"]:is([data-state="done"], [data-state="error"])', {
        timeout: 60_000,
      });
      // A check that could not run says why (a source that did not answer, or one the page may not reach).
      const failed = await page.$('[data-testid="figures-error"]');
      expect(failed && (await failed.textContent())).toBeNull();
      const rows = await page.$$eval('[data-testid="figure-row"]', (trs) =>
        trs.map((tr) => ({
          figure: tr.getAttribute("data-figure"),
          equal: tr.getAttribute("data-equal"),
          kind: tr.getAttribute("data-kind"),
        })),
      );
      const ms = Number(await page.getAttribute('[data-testid="figures"]', "data-ms"));
      return { page, rows, ms, problems };
    }

    /** The yield reports' tables, once filled: rows by report, and the time from the page's load. */
    async function yieldRows(page: Page) {
      await page.waitForSelector('[data-testid="yield-figures"][data-state="done"]', { timeout: 60_000 });
      const rows = await page.$$eval('[data-testid="report-row"]', (trs) =>
        trs.map((tr) => ({
          report: tr.closest("[data-report]")!.getAttribute("data-report"),
          figure: tr.getAttribute("data-figure"),
          kind: tr.getAttribute("data-kind"),
          equal: tr.getAttribute("data-equal"),
          published: tr.querySelector("td:nth-child(2)")!.textContent,
        })),
      );
      const summaries = await page.$$eval('[data-testid="report-check"]', (els) =>
        els.map((e) => ({
          report: e.getAttribute("data-report"),
          state: e.getAttribute("data-state"),
          summary: e.querySelector('[data-testid="report-summary"]')?.textContent ?? null,
          verdict: e.querySelector(".verdict")?.textContent ?? null,
        })),
      );
      const ms = Number(await page.getAttribute('[data-testid="yield-figures"]', "data-ms"));
      return { rows, summaries, ms, of: (report: string) => rows.filter((r) => r.report === report) };
    }

    /** "N figures: a equal, b differs, …" counted here from the rows, in the vocabulary's order. */
    const summaryOf = (rows: { kind: string | null }[]) => {
      const kinds = ["equal", "differs", "declared", "venue-now", "bracketed", "beyond-retention"];
      const n = (k: string) => rows.filter((r) => r.kind === k).length;
      return `${rows.length} figures: ${kinds
        .filter((k) => n(k) > 0 || k === "differs")
        .map((k) => `${n(k)} ${k}`)
        .join(", ")}`;
    };

    it("(a) the live statement: every chain figure equal, the venue equity bracketed, from the devnet's RPC and the network document's venue", async () => {
      const { page, rows, ms, problems } = await check(`rpc=${encodeURIComponent(s.rpcUrl)}`);
      console.log(`page: ${rows.length} figures re-derived from the RPC in ${ms} ms (load to full table)`);
      // No venue named: the page opened itself again naming the network document's, which its CSP then admits.
      const network = await api("/api/network");
      expect(new URL(page.url()).searchParams.get("venue")).toBe(network.kusd.venue.url);
      expect(rows.length).toBeGreaterThan(30);
      expect(rows.filter((r) => r.equal === "false")).toEqual([]);
      expect(rows.filter((r) => r.equal === "true").length).toBeGreaterThan(25);
      // equal is true for the kind equal only; the rest rests on the venue equity recorded at signing.
      expect(rows.filter((r) => (r.equal === "true") !== (r.kind === "equal"))).toEqual([]);
      expect(new Set(rows.map((r) => r.kind))).toEqual(new Set(["equal", "bracketed"]));
      expect(rows.find((r) => r.figure === "offchain.equity_usd")?.kind).toBe("bracketed");
      expect(await page.textContent('[data-testid="figures-verdict"]')).toMatch(/^✓ Every re-derivable figure equals/);
      expect(await page.textContent('[data-testid="figures-summary"]')).toBe(summaryOf(rows));
      expect(problems).toEqual([]);
      await page.close();
    });

    it("(c) /api/apy and /api/hedge-ledger as the page shows them: re-derived from the devnet's RPC and venue, no figure differs", async () => {
      // HTTP requests the page sends to the reader's RPC and venue (the statement's check and the yield's together).
      const sent = { rpc: 0, venue: 0 };
      const { page, problems } = await check(reader, async (p) =>
        p.on("request", (r) => {
          if (r.method() !== "POST") return;
          if (r.url().startsWith(s.rpcUrl)) sent.rpc++;
          else if (r.url() === venue) sent.venue++;
        }),
      );
      const y = await yieldRows(page);
      console.log(
        `page: yield reports re-derived in ${y.ms} ms (load to full table): ${y.summaries.map((r) => `${r.report} ${r.summary}`).join("; ")}; ${sent.rpc} HTTP requests to the RPC, ${sent.venue} to the venue (with the statement's check)`,
      );
      expect(new URL(page.url()).searchParams.get("venue")).toBe(venue);
      expect(y.summaries.map((r) => [r.report, r.state])).toEqual([
        ["/api/apy", "done"],
        ["/api/hedge-ledger", "done"],
      ]);
      expect(y.rows.filter((r) => r.kind === "differs")).toEqual([]);
      const apy = y.of("/api/apy");
      const ledger = y.of("/api/hedge-ledger");
      expect(apy.length).toBeGreaterThan(100);
      expect(ledger.length).toBeGreaterThan(50);
      // The very documents the page received, re-derived (read once for the section and the check).
      const [servedApy] = servedTo(page, "/api/apy");
      const [servedLedger] = servedTo(page, "/api/hedge-ledger");
      expect(servedTo(page, "/api/apy")).toHaveLength(1);
      const row = (rows: typeof apy, figure: string) => rows.find((r) => r.figure === figure);
      expect(row(apy, "expectedAPY")).toMatchObject({
        kind: "equal",
        equal: "true",
        published: String(servedApy.expectedAPY),
      });
      // Operator policy is declared; the hedge account's current state rests on a current-only venue answer.
      expect(row(apy, "sources.strategyCostFraction")?.kind).toBe("declared");
      expect(row(apy, "measuredVenue.equityUsd")?.kind).toBe("venue-now");
      expect(row(ledger, "totals.fundingUsd")).toMatchObject({
        kind: "equal",
        published: String(servedLedger.totals.fundingUsd),
      });
      // Fills older than the oldest the venue still serves cannot be read again.
      expect(row(ledger, "months[0].feesUsd")?.kind).toBe("beyond-retention");
      expect(y.rows.filter((r) => (r.equal === "true") !== (r.kind === "equal"))).toEqual([]);
      expect(y.summaries.map((r) => r.summary)).toEqual([summaryOf(apy), summaryOf(ledger)]);
      // The statement's check ran beside it, with the venue named.
      const statement = await page.$$eval('[data-testid="figure-row"]', (trs) =>
        trs.map((tr) => tr.getAttribute("data-kind")),
      );
      expect(statement).not.toContain("differs");
      expect(statement).toContain("bracketed");
      // The filled tables are read as tables (headers, named scrolling regions): axe finds nothing.
      const axe = await new AxeBuilder({ page }).include('[data-testid="figures"]').analyze();
      expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
      expect(problems).toEqual([]);
      await page.close();
    });

    it("(d) a venue that alters one hourly funding rate: /api/apy's funding, L and headline differ, the ledger does not", async () => {
      const { page } = await check(reader, (p) =>
        p.route(`${s.deployment.venue.url}/info`, async (route) => {
          const body = route.request().postDataJSON();
          const res = await route.fetch();
          if (body?.type !== "fundingHistory") return route.fulfill({ response: res });
          const rates = await res.json();
          if (rates.length > 0) rates[0].fundingRate = String(Number(rates[0].fundingRate) + 0.01);
          await route.fulfill({ response: res, json: rates });
        }),
      );
      const y = await yieldRows(page);
      const differs = (report: string) =>
        y
          .of(report)
          .filter((r) => r.kind === "differs")
          .map((r) => r.figure);
      expect(differs("/api/apy")).toEqual(expect.arrayContaining(["fundingRate", "sources.leverage", "expectedAPY"]));
      expect(differs("/api/hedge-ledger")).toEqual([]);
      expect(y.summaries.find((r) => r.report === "/api/apy")?.verdict).toMatch(
        /^✗ figures: \d+ of \d+ re-derived figures differ/,
      );
      await page.close();
    });

    it("(a) with proofs: every figure proven, each read executed in the browser over proven state", async () => {
      const { page, ms } = await check(`rpc=${encodeURIComponent(s.rpcUrl)}&proofs=1`);
      console.log(`page: figures, every read executed over proven state, in ${ms} ms`);
      const proofs = await page.$$eval('[data-testid="figure-row"] td:last-child', (tds) =>
        tds.map((t) => t.textContent),
      );
      expect(proofs.length).toBeGreaterThan(30);
      expect(proofs.filter((p) => p !== "proven")).toEqual([]);
      await page.close();
    });

    describe("with the reader's Ethereum RPC: the statement's block proven from the roots Base posts on Ethereum (issue 60)", () => {
      const l1Rpc = s.deployment.chains.ethereum.rpcUrl;
      const l1 = createPublicClient({ chain: devnetChain(1, l1Rpc), transport: http(l1Rpc) }) as PublicClient;
      const { blockInterval, intermediateBlockInterval } = DEVNET_PROOF_PARAMS;
      const withEthereum = `${reader}&l1rpc=${encodeURIComponent(l1Rpc)}`;
      /** The first multiple of the interval at or after `block`: the Base block of the game that covers it. */
      const gameBlockOf = (block: number) => Math.ceil(block / blockInterval) * blockInterval;
      /** The proposer's games, read with plain eth_call of the factory and the clones (an independent source). */
      const proposed = async () =>
        (await readGames(l1, 0, await gameCount(l1))).filter((g) => g.creator === PROOF_KEYS.proposer.address);
      const latest = async () => {
        const artifact = await api("/api/por/signed");
        return { artifact, payload: JSON.parse(artifact.signed_payload_canonical) };
      };

      /** The ethereum check as the page shows it. */
      async function ethereumOf(page: Page) {
        return page.$eval('[data-testid="ethereum"]', (el) => ({
          status: el.getAttribute("data-status"),
          l1Block: Number(el.getAttribute("data-l1-block")),
          game: el.getAttribute("data-game"),
          rootIndex: el.getAttribute("data-root-index"),
          standing: el.getAttribute("data-standing"),
          nextBlock: el.getAttribute("data-next-block"),
          check: el.querySelector('[data-testid="check-ethereum"]')!.textContent!,
          lines: [...el.querySelectorAll('li:not([data-testid="check-ethereum"])')].map((li) => li.textContent!),
        }));
      }
      const proofColumn = (page: Page) =>
        page.$$eval('[data-testid="figure-row"] td:last-child', (tds) => tds.map((t) => t.textContent));

      it("(e) the live statement: PENDING while no root posted on Ethereum covers its block (the factory's newest game, read with eth_call), naming the game block that will cover it; every figure proven against its own hash", async () => {
        const block = (await latest()).payload.report_block as number;
        const newest = (await proposed()).reduce((a, g) => (g.l2SequenceNumber > a ? g.l2SequenceNumber : a), 0n);
        // The devnet mines Base blocks only on transactions: a statement signed at the head waits for
        // the chain to reach the next game block (60 blocks) and for the proposer's game there.
        expect(
          newest,
          `the newest game (block ${newest}) already covers the statement's block ${block}: something mined ${gameBlockOf(block) - block}+ Base blocks since it was signed`,
        ).toBeLessThan(block);

        const { page, rows, ms, problems } = await check(withEthereum);
        const e = await ethereumOf(page);
        console.log(
          `page: statement at block ${block}, with proofs and Ethereum, pending, in ${ms} ms (load to full table)\n  ${e.check}`,
        );
        expect(e.status).toBe("pending");
        expect(e.nextBlock).toBe(String(gameBlockOf(block)));
        expect(e.check).toContain(`ethereum — PENDING: Base block ${block} is newer than every root posted on L1`);
        expect(e.check).toContain(`covers up to block ${newest}`);
        expect(e.check).toContain(`the root covering it comes with the game for block ${gameBlockOf(block)}`);
        expect(e.lines.at(-1)).toMatch(
          new RegExp(`^Ethereum block ${e.l1Block}, dated .*: your Ethereum RPC's latest header`),
        );
        // Every other check passed: the reads ran against the statement's own hash.
        expect(await page.textContent('[data-testid="figures-verdict"]')).toMatch(
          new RegExp(`^PENDING: every re-derivable figure equals the signed one \\(block ${block}, `),
        );
        expect(await page.getAttribute('[data-testid="figures"]', "class")).toContain("warn");
        expect(await page.textContent('[data-testid="figures-trust"]')).toMatch(
          /^Not proven from Ethereum \(pending\)/,
        );
        expect(rows.filter((r) => r.equal === "false")).toEqual([]);
        const proofs = await proofColumn(page);
        expect(proofs.length).toBeGreaterThan(30);
        expect(proofs.filter((p) => p !== "proven")).toEqual([]);
        expect(problems).toEqual([]);
        await page.close();
      }, 150_000);

      it("(f) once the proposer's game covers it: proven from Ethereum, on the game and root the factory lists, in the state the game has at that Ethereum block", async () => {
        const { payload } = await latest();
        const block = payload.report_block as number;
        // Base blocks up to the game block covering the statement, then the proposer's game for it.
        const target = gameBlockOf(block);
        const head = Number(await s.client.getBlockNumber());
        if (head < target)
          await s.client.request({ method: "anvil_mine" as never, params: [toHex(target - head)] as never });
        let game: GameRecord | undefined;
        await expect
          .poll(async () => (game = (await proposed()).find((g) => g.l2SequenceNumber === BigInt(target))), {
            timeout: 30_000,
            interval: 250,
          })
          .toBeDefined();
        await s.caughtUp();
        expect((await latest()).payload.report_block).toBe(block);

        const { page, rows, ms, problems } = await check(withEthereum);
        const e = await ethereumOf(page);
        console.log(
          `page: statement at block ${block}, with proofs and Ethereum, proven, in ${ms} ms (load to full table)\n  ${e.check}`,
        );
        expect(e.status).toBe("proven");
        expect(e.game).toBe(game!.address);
        const rootIndex = Math.ceil((block - (target - blockInterval)) / intermediateBlockInterval) - 1;
        expect(e.rootIndex).toBe(String(rootIndex));
        expect(e.check).toContain(`is committed to by game ${game!.address}'s root ${rootIndex}`);
        // The game's state at the Ethereum block the page rested on, read there with eth_call.
        const at = { blockNumber: BigInt(e.l1Block) };
        const [status, claimValid] = await Promise.all([
          l1.readContract({ address: game!.address, abi: aggregateVerifierAbi, functionName: "status", ...at }),
          l1.readContract({
            address: BASE_PROOF_SYSTEM.anchorStateRegistry,
            abi: anchorStateRegistryAbi,
            functionName: "isGameClaimValid",
            args: [game!.address],
            ...at,
          }),
        ]);
        expect(e.standing).toBe(status === GAME_STATUS.IN_PROGRESS ? "in-progress" : claimValid ? "final" : "resolved");
        expect(e.lines[0]).toMatch(/^the game is final/);
        expect(await page.textContent('[data-testid="figures-verdict"]')).toMatch(
          new RegExp(
            `^✓ Every re-derivable figure equals the signed one \\(block ${block}, on a block hash proven from Ethereum, `,
          ),
        );
        expect(await page.getAttribute('[data-testid="figures"]', "class")).toContain("good");
        const trust = await page.textContent('[data-testid="figures-trust"]');
        expect(trust).toContain(`an Ethereum header from your Ethereum RPC (block ${e.l1Block}, its latest)`);
        expect(trust).toContain("not your Base RPC");
        expect(rows.filter((r) => r.equal === "false")).toEqual([]);
        const proofs = await proofColumn(page);
        expect(proofs.length).toBeGreaterThan(30);
        expect(proofs.filter((p) => p !== "proven")).toEqual([]);
        expect(problems).toEqual([]);
        await page.close();
      }, 150_000);
    });

    it("(b) a figure raised and re-signed with the authorised key: the signature card is green, the figure is not", async () => {
      const attestation = privateKeyToAccount(s.deployment.accounts.attestationSigner!.privateKey);
      const { page, rows } = await check(`rpc=${encodeURIComponent(s.rpcUrl)}`, (p) =>
        p.route("**/api/por/signed", async (route) => {
          const res = await route.fetch();
          const artifact = JSON.parse(await res.text());
          const payload = JSON.parse(artifact.signed_payload_canonical);
          payload.psm_reserves_usdc.psmMint += 1_000;
          const signed = await signPayload(attestation, payload);
          await route.fulfill({ response: res, body: JSON.stringify(withSignedCopies(signed, STATEMENT_COPIES)) });
        }),
      );
      await page.waitForSelector('[data-testid="verification"]:not([data-verified="pending"])');
      expect(await page.getAttribute('[data-testid="verification"]', "data-verified")).toBe("true");
      expect(rows.filter((r) => r.equal === "false").map((r) => r.figure)).toEqual(["psm_reserves_usdc.psmMint"]);
      expect(await page.textContent('[data-testid="figures-verdict"]')).toContain("psm_reserves_usdc.psmMint");
      await page.close();
    });
  });
});
