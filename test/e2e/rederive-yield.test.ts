/**
 * The yield side re-derived by a reader (issue 57): `kusd-verify --report` on /api/apy and
 * /api/hedge-ledger from the devnet's RPC and its venue, and the venue half of the signed
 * statement. The live reports re-derive with no figure differing; a copy with one figure changed
 * fails naming it; a venue that alters one hourly funding rate makes /api/apy's funding mean, L
 * and headline differ; a venue that alters the account value history makes the statement's venue
 * equity differ; the ledger, whose window reaches past the fills the venue keeps, says
 * beyond-retention for the months before the oldest kept fill; a network document of another
 * deployment stops the verifier with the flag that fixes it, before any figure.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LEDGER_SINCE_MS } from "@kusd/core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { networkFileOf } from "../../devnet/network-document.js";
import { FILLS_KEPT, runVerify } from "../../packages/verify/src/node.js";
import { startLyingVenue } from "../helpers/lying-venue.js";
import { stack } from "../helpers/stack.js";

const s = stack();
const d = s.deployment;
const venueUrl = `${d.venue.url}/info`;
const network = networkFileOf(inject("deploymentFile"));
const dir = mkdtempSync(join(tmpdir(), "kusd-rederive-yield-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function verifyReport(report: unknown, name: string, venue = venueUrl) {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(report));
  const argv = [file, "--report", "--rpc", s.rpcUrl, "--network", network, "--venue", venue, "--json"];
  const { exitCode, output } = await runVerify(argv);
  return { exitCode, result: JSON.parse(output) };
}
const rowOf = (result: any, figure: string) => result.figures.find((f: any) => f.figure === figure);
const differing = (result: any) => result.figures.filter((f: any) => f.kind === "differs").map((f: any) => f.figure);
const byKind = (result: any) => {
  const counts: Record<string, number> = {};
  for (const f of result.figures) counts[f.kind] = (counts[f.kind] ?? 0) + 1;
  return counts;
};

const post = async (url: string, body: unknown): Promise<any> =>
  (
    await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })
  ).json();

/** Every record of a time-range request, paged as the venue documents (independent of the verifier). */
async function allPages(body: Record<string, unknown>, startTime: number, endTime: number, page: number) {
  const out: any[] = [];
  for (let start = startTime; ; ) {
    const got = (await post(venueUrl, { ...body, startTime: start, endTime })) as any[];
    out.push(...got);
    if (got.length < page) return out;
    start = Math.max(...got.map((r) => r.time)) + 1;
  }
}

describe("kusd-verify --report on /api/apy", () => {
  let apy: any;
  beforeAll(async () => {
    apy = await (await fetch(`${s.indexerUrl}/api/apy`)).json();
  });

  it("the live report: no figure differs; policy declared, the hedge account venue-now; the funding mean as the venue's own rates give it", async () => {
    const { exitCode, result } = await verifyReport(apy, "apy.json");
    expect(differing(result)).toEqual([]);
    expect(exitCode).toBe(0);
    expect(result.report).toBe("apy");
    expect(rowOf(result, "expectedAPY")).toMatchObject({ kind: "equal", equal: true });
    expect(rowOf(result, "sources.strategyCostFraction")).toMatchObject({ kind: "declared", equal: null });
    expect(rowOf(result, "measuredVenue.equityUsd")).toMatchObject({ kind: "venue-now", equal: null });
    // By hand from the venue's hourly rates over the pinned window: the mean × 8760, then L.
    const window = apy.pins.venue.requests.find((r: any) => r.request.type === "fundingHistory").request;
    const rates = await allPages({ type: "fundingHistory", coin: window.coin }, window.startTime, window.endTime, 500);
    const funding = (rates.reduce((sum, r) => sum + Number(r.fundingRate), 0) / rates.length) * 8760;
    expect(apy.fundingRate).toBeCloseTo(funding, 8);
    expect(apy.sources.leverage).toBeCloseTo(Math.min(12, 1.5 + funding * 10), 6);
    expect(apy.sources.fundingEntries).toBe(rates.length);
    console.log(`[apy] block ${apy.pins.block.number}: ${JSON.stringify(byKind(result))}`);
  });

  it("a copy with the headline raised fails naming it", async () => {
    const { exitCode, result } = await verifyReport(
      { ...apy, expectedAPY: apy.expectedAPY + 0.001 },
      "apy-raised.json",
    );
    expect(exitCode).toBe(1);
    expect(differing(result)).toEqual(["expectedAPY"]);
  });

  it("a venue that alters one hourly funding rate makes the funding mean, L and the headline differ", async () => {
    const window = apy.pins.venue.requests.find((r: any) => r.request.type === "fundingHistory").request;
    const venue = await startLyingVenue(venueUrl, (request, answer) =>
      request.type === "fundingHistory" && request.startTime === window.startTime && Array.isArray(answer)
        ? answer.map((r: any, i: number) =>
            i === 0 ? { ...r, fundingRate: String(Number(r.fundingRate) + 0.001) } : r,
          )
        : answer,
    );
    try {
      const { exitCode, result } = await verifyReport(apy, "apy-lying-venue.json", venue.url);
      expect(exitCode).toBe(1);
      expect(differing(result)).toEqual(expect.arrayContaining(["fundingRate", "sources.leverage", "expectedAPY"]));
      console.log(`[apy] one hourly rate altered by the venue: ${differing(result).length} figures differ`);
    } finally {
      await venue.close();
    }
  });
});

describe("kusd-verify --report on /api/hedge-ledger", () => {
  let ledger: any;
  beforeAll(async () => {
    ledger = await (await fetch(`${s.indexerUrl}/api/hedge-ledger`)).json();
  });

  it("fills past the venue's retention are said, never equal; the funding figures equal the venue's own records", async () => {
    const { exitCode, result } = await verifyReport(ledger, "ledger.json");
    expect(differing(result)).toEqual([]);
    expect(exitCode).toBe(0);
    // Independently: the fills the venue still serves since the ledger's start, and the oldest of them.
    const fills = await allPages(
      { type: "userFillsByTime", user: d.venue.hedgeAccount },
      LEDGER_SINCE_MS,
      Date.now(),
      2_000,
    );
    expect(fills.length).toBe(FILLS_KEPT);
    const horizon = Math.min(...fills.map((f) => f.time));
    const before = ledger.months.filter((m: any) => Date.parse(`${m.month}-01T00:00:00Z`) < horizon);
    expect(before.length).toBeGreaterThan(0);
    for (const m of before.map((_: unknown, i: number) => i))
      expect(rowOf(result, `months[${m}].fills`)).toMatchObject({ kind: "beyond-retention", equal: null });
    expect(rowOf(result, "totals.feesUsd").kind).toBe("beyond-retention");
    const funding = await allPages(
      { type: "userFunding", user: d.venue.hedgeAccount },
      LEDGER_SINCE_MS,
      Date.parse(ledger.untilISO),
      500,
    );
    expect(ledger.totals.fundingUsd).toBeCloseTo(
      funding.reduce((sum, r) => sum + Number(r.delta.usdc), 0),
      5,
    );
    expect(rowOf(result, "totals.fundingUsd")).toMatchObject({ kind: "equal" });
    console.log(
      `[hedge-ledger] oldest kept fill ${new Date(horizon).toISOString()}: ${JSON.stringify(byKind(result))}`,
    );
  });

  it("a copy with the funding total raised fails naming it", async () => {
    const altered = { ...ledger, totals: { ...ledger.totals, fundingUsd: ledger.totals.fundingUsd + 1 } };
    const { exitCode, result } = await verifyReport(altered, "ledger-raised.json");
    expect(exitCode).toBe(1);
    expect(differing(result)).toEqual(["totals.fundingUsd"]);
  });
});

describe("the signed statement's venue equity, and the network document", () => {
  let statementFile: string;
  let bindingFile: string;
  beforeAll(async () => {
    // A statement of its own, at a new head, so it records a venue answer of its own (the latest
    // published one may be another file's, issued while that file made the venue fail).
    await s.client.request({ method: "evm_mine" as never });
    await s.caughtUp();
    const issued = await fetch(`${s.indexerUrl}/api/por/signed`, {
      method: "POST",
      headers: { authorization: `Bearer ${inject("adminToken")}` },
    });
    expect(issued.status).toBe(201);
    const text = await issued.text();
    expect(JSON.parse(JSON.parse(text).signed_payload_canonical).offchain.equity_usd).not.toBeNull();
    statementFile = join(dir, "statement.json");
    writeFileSync(statementFile, text);
    bindingFile = join(dir, "binding.json");
    writeFileSync(bindingFile, await (await fetch(`${s.indexerUrl}/api/por/signer-registry`)).text());
  });
  const verifyStatement = async (...extra: string[]) => {
    const argv = [statementFile, "--binding", bindingFile, "--operator", d.signers.operator, "--no-freshness"];
    const { exitCode, output } = await runVerify([...argv, "--rpc", s.rpcUrl, "--json", ...extra]);
    return { exitCode, result: JSON.parse(output) };
  };

  it("a venue whose account value history was altered makes the recorded equity differ", async () => {
    const honest = await verifyStatement("--network", network, "--venue", venueUrl);
    expect(rowOf(honest.result, "offchain.equity_usd")).toMatchObject({ kind: "bracketed" });
    const venue = await startLyingVenue(venueUrl, (request, answer) =>
      request.type === "portfolio" && Array.isArray(answer)
        ? answer.map(([name, w]: [string, any]) => [
            name,
            {
              ...w,
              accountValueHistory: w.accountValueHistory.map(([t, v]: [number, string]) => [
                t,
                String(Number(v) * 1.1),
              ]),
            },
          ])
        : answer,
    );
    try {
      const { exitCode, result } = await verifyStatement("--network", network, "--venue", venue.url);
      expect(exitCode).toBe(1);
      expect(rowOf(result, "offchain.equity_usd")).toMatchObject({ kind: "differs", equal: false });
      expect(rowOf(result, "offchain.equity_usd").note).toMatch(/does not lie between/);
    } finally {
      await venue.close();
    }
  });

  it("without the devnet's network document (Base's by default): a clear stop naming --network, no figures", async () => {
    const { exitCode, result } = await verifyStatement();
    expect(exitCode).toBe(2);
    expect(result.figures).toBeUndefined();
    expect(result.error.type).toBe("NetworkMismatchError");
    expect(result.error.message).toMatch(/network document/);
    expect(result.error.message).toMatch(/--network/);
    console.log(`[network] ${result.error.message}`);
  });

  it("a report that names no pins is refused as unreadable, not compared", async () => {
    const { pins: _, ...bare } = await (await fetch(`${s.indexerUrl}/api/apy`)).json();
    const { exitCode, result } = await verifyReport(bare, "no-pins.json");
    expect(exitCode).toBe(1);
    expect(result.checks).toEqual([expect.objectContaining({ name: "report", ok: false })]);
  });
});
