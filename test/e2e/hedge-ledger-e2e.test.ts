/**
 * /api/hedge-ledger mounted in process over the shared devnet's venue simulator: totals equal
 * an independent computation from raw `POST /info` answers, months add up to the totals, the
 * reader pages past 500 funding records and 2,000-fill answers, and a venue that fails gives
 * 200, isLive false and nulls.
 */

import { readServiceEnv } from "@kusd/config";
import { selectNetwork } from "@kusd/config/node";
import { LEDGER_SINCE_MS } from "@kusd/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createReportContext, type ReportContext } from "../../api/context.js";
import { withApiErrors } from "../../api/http/errors.js";
import { hedgeLedgerRoutes } from "../../api/yield/hedge-ledger-routes.js";
import { startVenueServer, type VenueServer } from "../../devnet/venue/server.js";
import { VenueReader } from "../../packages/verify/src/index.js";
import { freePort } from "../helpers/ports.js";
import { stack } from "../helpers/stack.js";

const { deployment: d } = stack();
const infoUrl = `${d.venue.url}/info`;
const hedge = d.venue.hedgeAccount;
const ctx = createReportContext(selectNetwork(readServiceEnv(process.env)), undefined as never, "http://site.test"); // the ledger never touches ctx.db

const withVenueUrl = (url: string | null): ReportContext => ({
  ...ctx,
  network: { ...ctx.network, reporting: { ...ctx.network.reporting, venue: { ...ctx.network.reporting.venue, url } } },
});

const post = async (url: string, body: unknown): Promise<any[]> => {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as any[];
};

/** Independent of api/: raw pages until an empty one, then the spec 2.5 sums by hand. */
async function independent(url: string, endTime: number) {
  const funding: any[] = [];
  for (let startTime = LEDGER_SINCE_MS; ; ) {
    const page = await post(url, { type: "userFunding", user: hedge, startTime, endTime });
    if (page.length === 0) break;
    funding.push(...page);
    startTime = page.at(-1).time + 1;
  }
  // userFillsByTime answers at most 2,000 fills, oldest first, of the 10,000 the venue keeps.
  const fills: any[] = [];
  for (let startTime = LEDGER_SINCE_MS; ; ) {
    const page = await post(url, { type: "userFillsByTime", user: hedge, startTime, endTime });
    if (page.length === 0) break;
    expect(page.length).toBeLessThanOrEqual(2_000);
    fills.push(...page);
    startTime = page.at(-1).time + 1;
  }
  const fundingUsd = funding.reduce((s, r) => s + Number(r.delta.usdc), 0);
  const feesUsd = fills.reduce((s, f) => s + Number(f.fee), 0);
  const closedPnlUsd = fills.reduce((s, f) => s + Number(f.closedPnl), 0);
  const priced = funding.filter((r) => Number(r.delta.fundingRate) !== 0 && Number(r.delta.usdc) !== 0);
  const notionalHoursUsd = priced.reduce((s, r) => s + Math.abs(Number(r.delta.usdc) / Number(r.delta.fundingRate)), 0);
  return {
    fundingUsd,
    feesUsd,
    closedPnlUsd,
    netUsd: fundingUsd + closedPnlUsd - feesUsd,
    fundingEvents: funding.length,
    fills: fills.length,
    positionHours: funding.reduce((s, r) => s + (r.delta.nSamples ?? 1), 0),
    aggregated: funding.filter((r) => r.delta.nSamples != null).length,
    zeroRate: funding.length - priced.length,
    notionalHoursUsd,
  };
}

async function ledger(app: { request(path: string): Response | Promise<Response> }, query = "") {
  const res = await app.request(`/api/hedge-ledger${query}`);
  expect(res.status).toBe(200);
  return (await res.json()) as any;
}

function expectAgrees(l: any, ind: Awaited<ReturnType<typeof independent>>) {
  expect(l.isLive).toBe(true);
  expect(l.totals.fundingUsd).toBeCloseTo(ind.fundingUsd, 5);
  expect(l.totals.feesUsd).toBeCloseTo(ind.feesUsd, 5);
  expect(l.totals.closedPnlUsd).toBeCloseTo(ind.closedPnlUsd, 5);
  expect(l.totals.netUsd).toBeCloseTo(ind.netUsd, 5);
  expect(l.totals.fundingEvents).toBe(ind.fundingEvents);
  expect(l.totals.fills).toBe(ind.fills);
  expect(l.denominator.fundingRecords).toBe(ind.fundingEvents);
  expect(l.denominator.positionHours).toBe(ind.positionHours);
  expect(l.denominator.zeroRateRecords).toBe(ind.zeroRate);
  if (ind.zeroRate === 0) {
    expect(l.denominator.notionalHoursUsd).toBeCloseTo(ind.notionalHoursUsd, 3);
    expect(l.denominator.annualisedOnNotional).toBeCloseTo((ind.fundingUsd / ind.notionalHoursUsd) * 8760, 8);
  }
  expect(l.denominator.timeWeightedNotionalUsd).toBeCloseTo(
    l.denominator.notionalHoursUsd / l.denominator.positionHours,
    4,
  );
  // months add up to the totals
  for (const k of ["fundingUsd", "feesUsd", "closedPnlUsd", "netUsd", "fundingEvents", "fills"]) {
    expect(
      l.months.reduce((s: number, m: any) => s + m[k], 0),
      k,
    ).toBeCloseTo(l.totals[k], 4);
  }
}

const oldestKeptFill = async () =>
  (await post(infoUrl, { type: "userFillsByTime", user: hedge, startTime: 0 }))[0]?.tid;

/**
 * The ledger's read and ours, of the same kept fills: the venue keeps only the 10,000 most
 * recent, so a fill landing between the two reads pushes the oldest out; read both again then.
 */
async function ledgerAndIndependent(
  app: { request(path: string): Response | Promise<Response> },
  query: string,
  endOf: (l: any) => number,
) {
  for (let attempt = 1; ; attempt++) {
    const oldest = await oldestKeptFill();
    const l = await ledger(app, query);
    const ind = await independent(infoUrl, endOf(l));
    if (attempt === 3 || (await oldestKeptFill()) === oldest) return { l, ind };
  }
}

describe("GET /api/hedge-ledger on the devnet venue", () => {
  const app = withApiErrors(hedgeLedgerRoutes(ctx));

  it("equals an independent computation from raw /info answers up to a fixed until", async () => {
    const until = "2026-11-01T00:00:00.000Z";
    const { l, ind } = await ledgerAndIndependent(app, `?until=${until}`, () => Date.parse(until));
    expectAgrees(l, ind);
    expect(l.account).toBe(hedge);
    expect(l.venue).toBe("hyperliquid");
    expect(l.sinceISO).toBe("2026-05-14T00:00:00.000Z");
    expect(l.untilISO).toBe(until);
    expect(l.months.map((m: any) => m.month)).toEqual([
      "2026-05",
      "2026-06",
      "2026-07",
      "2026-08",
      "2026-09",
      "2026-10",
      "2026-11",
    ]);
    // the record count is not an hour count: June's 8-hour records make them differ
    expect(ind.aggregated).toBeGreaterThan(0);
    expect(l.denominator.positionHours).toBe(ind.fundingEvents + 7 * ind.aggregated);
    expect(l.totals.fundingEvents).toBeGreaterThan(500); // the reader paged
    expect(l.venueRead.ok).toBe(true);
    expect(l.venueRead.pages.userFunding).toBeGreaterThan(1);
    expect(l.replay.userFunding).toContain(infoUrl);
    expect(l.replay.userFunding).toContain(`"endTime":${Date.parse(until)}`);
  });

  it("reads up to now by default, and its replay request names the window it read", async () => {
    const replayed = (l: any) => JSON.parse(/-d '([^']+)'/.exec(l.replay.userFunding)![1]!);
    const { l, ind } = await ledgerAndIndependent(app, "", (l) => replayed(l).endTime);
    const request = replayed(l);
    expect(request).toMatchObject({ type: "userFunding", user: hedge, startTime: LEDGER_SINCE_MS });
    expect(request.endTime).toBe(Date.parse(l.untilISO));
    expectAgrees(l, ind);
  });

  it("answers 400 for a bad until", async () => {
    const res = await app.request("/api/hedge-ledger?until=not-a-date");
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).error.code).toBe("invalid_until");
  });
});

describe("venue failure", () => {
  let failing: VenueServer;
  beforeAll(async () => {
    failing = await startVenueServer({ port: 0, hedgeAccount: hedge, fault: "http500" });
  });
  afterAll(() => failing?.close());

  const expectUnknown = (l: any) => {
    expect(l.isLive).toBe(false);
    expect(l.months).toBeNull();
    for (const v of Object.values(l.totals)) expect(v).toBeNull();
    for (const [k, v] of Object.entries(l.denominator)) if (k !== "basis") expect(v, k).toBeNull();
    expect(l.venueRead.ok).toBe(false);
  };

  it("gives 200, isLive false, null figures and the reason when the venue answers 500", async () => {
    const l = await ledger(withApiErrors(hedgeLedgerRoutes(withVenueUrl(`${failing.url}/info`))));
    expectUnknown(l);
    expect(l.venueRead.status).toBe(500);
    expect(l.venueRead.reason).toMatch(/500/);
  });

  it("gives the same when nothing listens", async () => {
    const port = await freePort();
    const l = await ledger(withApiErrors(hedgeLedgerRoutes(withVenueUrl(`http://127.0.0.1:${port}/info`))));
    expectUnknown(l);
    expect(l.venueRead.reason).toMatch(/unreachable/);
  });
});

describe("paging through the venue's 500-record and 2,000-fill answers", () => {
  const NOW = Math.floor(Date.parse("2026-11-20T00:00:00Z") / 1000);
  let venue: VenueServer;
  beforeAll(async () => {
    venue = await startVenueServer({ port: 0, hedgeAccount: hedge, now: () => NOW });
  });
  afterAll(() => venue?.close());

  it("reads every funding record and every kept fill once, in time order, and stops on the short page", async () => {
    const end = NOW * 1000;
    const reader = new VenueReader(`${venue.url}/info`);
    const records = await reader.userFunding(hedge, LEDGER_SINCE_MS, end);
    const ind = await independent(`${venue.url}/info`, end);
    expect(records.length).toBe(ind.fundingEvents);
    expect(reader.requests.at(-1)!.pages).toBe(Math.floor(records.length / 500) + 1);
    expect(records.every((r, i) => i === 0 || r.time > records[i - 1]!.time)).toBe(true);
    const { fills, retention } = await reader.userFills(hedge, LEDGER_SINCE_MS, end);
    expect(ind.fills).toBe(10_000); // the hedge has traded more often than the venue keeps
    expect(fills.length).toBe(ind.fills);
    expect(fills.every((f, i) => i === 0 || f.time > fills[i - 1]!.time)).toBe(true);
    expect(reader.requests.at(-1)!.pages).toBeGreaterThanOrEqual(ind.fills / 2_000);
    expect(retention).toEqual({ kept: 10_000, complete: false, horizonMs: fills[0]!.time });
  });
});
