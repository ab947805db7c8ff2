/**
 * The reserves page in a real browser: its figures equal GET /api/por at the block it shows, the
 * chart has the history's points, the signed statement verifies green in the page and red when
 * a byte of it is changed in transit, the block picker loads a past block, a copy button copies
 * the figure's cast command, and a live violation appears and is retracted after a reorg.
 * A full-page screenshot is written to test-results/reserves-page.png.
 */
import { mkdirSync } from "node:fs";
import { STATEMENT_COPIES, signPayload, withSignedCopies } from "@kusd/core";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { parseEther } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { weth9Abi } from "../../abis/index.js";
import { devnetKey } from "../../devnet/keys.js";
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
  // Every /api/por document the page received: the exact report it rendered.
  const served: any[] = [];
  page.on("response", async (r) => {
    if (new URL(r.url()).pathname === "/api/por" && r.ok()) served.push(await r.json().catch(() => null));
  });
  pagesServed.set(page, served);
  await page.goto(`${s.indexerUrl}${path}`);
  await page.waitForSelector('[data-testid="report-block"]');
  await page.waitForSelector('[data-testid="chart"] canvas');
  await page.waitForSelector('[data-testid="verification"]:not([data-verified="pending"])');
  await scrollThrough(page);
  return { page, problems };
}

const pagesServed = new WeakMap<Page, any[]>();

/**
 * The page's figures against /api/por read again at the block it shows. The aggregate ratio
 * (and the status it may decide) counts the venue's equity, read live at the head, so it is
 * checked against the very document the page received; every chain figure against the new read.
 */
async function expectFiguresEqualReport(page: Page) {
  const block = Number(await value(page, "report-block"));
  const por = await api(`/api/por?block=${block}`);
  const served = pagesServed
    .get(page)!
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
    /** Opens the page with `?rpc=` (as its form does) and waits for the table. */
    async function check(query: string, route?: (page: Page) => Promise<unknown>) {
      const page = await context.newPage();
      const problems: string[] = [];
      page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
      await route?.(page);
      await page.goto(`${s.indexerUrl}/?${query}`);
      await page.waitForSelector('[data-testid="figures"][data-state="done"]', { timeout: 60_000 });
      const rows = await page.$$eval('[data-testid="figure-row"]', (trs) =>
        trs.map((tr) => ({ figure: tr.getAttribute("data-figure"), equal: tr.getAttribute("data-equal") })),
      );
      const ms = Number(await page.getAttribute('[data-testid="figures"]', "data-ms"));
      return { page, rows, ms, problems };
    }

    it("(a) the live statement: every chain figure equal, from the devnet's RPC, in the page", async () => {
      const { page, rows, ms, problems } = await check(`rpc=${encodeURIComponent(s.rpcUrl)}`);
      console.log(`page: ${rows.length} figures re-derived from the RPC in ${ms} ms (load to full table)`);
      expect(rows.length).toBeGreaterThan(30);
      expect(rows.filter((r) => r.equal === "false")).toEqual([]);
      expect(rows.filter((r) => r.equal === "true").length).toBeGreaterThan(25);
      expect(await page.textContent('[data-testid="figures-verdict"]')).toMatch(/^✓ Every re-derivable figure equals/);
      expect(problems).toEqual([]);
      await page.close();
    });

    it("(a) with storage proofs: every figure proven or named RPC-trusted, none failed", async () => {
      const { page, ms } = await check(`rpc=${encodeURIComponent(s.rpcUrl)}&proofs=1`);
      console.log(`page: figures and storage proofs in ${ms} ms`);
      const proofs = await page.$$eval('[data-testid="figure-row"] td:last-child', (tds) =>
        tds.map((t) => t.textContent),
      );
      expect(proofs).not.toContain("failed");
      expect(proofs.filter((p) => p === "proven").length).toBeGreaterThan(20);
      await page.close();
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
