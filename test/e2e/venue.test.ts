/**
 * The venue simulator answers the Hyperliquid info requests consistently and with the real
 * venue's limits: the equity it reports (now and in every portfolio sample) is what its own
 * ledger, funding payments and fills add up to at the market's price; time-range answers page
 * at 500, fill answers at 2,000, and only the account's 10,000 most recent fills exist;
 * funding is signed (and sometimes negative), nSamples appears where records aggregate hours,
 * and the fault switch fails requests the ways a real venue does.
 *
 * Two simulators with fixed clocks: one late enough that the hedge has traded far more than
 * 10,000 times, and one early enough that every fill it ever made is still served.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devnetKey } from "../../devnet/keys.js";
import { HISTORY_START } from "../../devnet/timeline.js";
import { hedgeFills } from "../../devnet/venue/hedge.js";
import { ethPriceAt } from "../../devnet/venue/market.js";
import { startVenueServer, type VenueServer } from "../../devnet/venue/server.js";

const NOW = Math.floor(Date.parse("2026-11-20T00:00:00Z") / 1000);
const EARLY = Math.floor(Date.parse("2026-07-20T00:00:00Z") / 1000);
const hedge = devnetKey("test:hedge").address;
const WINDOWS = ["day", "week", "month", "allTime"];
const CADENCE: Record<string, number> = { day: 900, week: 3_600, month: 4 * 3_600, allTime: 86_400 };
const SPAN: Record<string, number> = { day: 86_400, week: 7 * 86_400, month: 30 * 86_400 };
const PERP_TWIN: Record<string, string> = {
  day: "perpDay",
  week: "perpWeek",
  month: "perpMonth",
  allTime: "perpAllTime",
};

let venue: VenueServer;
let early: VenueServer;

const postTo = async (server: VenueServer, body: unknown) => {
  const res = await fetch(`${server.url}/info`, { method: "POST", body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as any };
};
const post = (body: unknown) => postTo(venue, body);

/** Follows startTime pagination (the last time + 1) until an answer comes back empty. */
async function allPages(server: VenueServer, type: string, extra: object, start: number, cap = 500): Promise<any[]> {
  const out: any[] = [];
  let startTime = start;
  for (;;) {
    const { body } = await postTo(server, { type, ...extra, startTime });
    if (body.length === 0) return out;
    expect(body.length).toBeLessThanOrEqual(cap);
    out.push(...body);
    startTime = body.at(-1).time + 1;
  }
}

/** Everything a reader can fetch about the hedge account from one simulator, paged as the docs say. */
async function venueRecords(server: VenueServer) {
  const fills = await allPages(server, "userFillsByTime", { user: hedge }, 0, 2_000);
  const funding = await allPages(server, "userFunding", { user: hedge }, 0);
  const ledger = await allPages(server, "userNonFundingLedgerUpdates", { user: hedge }, 0);
  return { fills, funding, ledger };
}
type Records = Awaited<ReturnType<typeof venueRecords>>;

const signedSize = (f: any) => (f.side === "B" ? 1 : -1) * Number(f.sz);
const sumWhere = <T>(list: T[], keep: (x: T) => boolean, value: (x: T) => number) =>
  list.filter(keep).reduce((s, x) => s + value(x), 0);

/**
 * Equity at any time, moved from an equity known at another time using only the venue's
 * records and the market's price: deposits, funding and fill cash flows (minus fees) in
 * between, plus the change in the position's value. The position is the first kept fill's
 * startPosition plus the kept fills since, so average-cost entry prices are not needed, and
 * only times after the first kept fill can be reached.
 */
function equityFrom(r: Records) {
  const fills = r.fills.map((f) => ({
    time: f.time,
    size: signedSize(f),
    cash: -signedSize(f) * Number(f.px) - Number(f.fee),
  }));
  const cash = [
    ...r.ledger.map((u) => ({ time: u.time, usd: Number(u.delta.usdc) })),
    ...r.funding.map((x) => ({ time: x.time, usd: Number(x.delta.usdc) })),
    ...fills.map((f) => ({ time: f.time, usd: f.cash })),
  ];
  const startPosition = Number(r.fills[0]?.startPosition ?? 0);
  const cashThrough = (t: number) =>
    sumWhere(
      cash,
      (c) => c.time <= t * 1000,
      (c) => c.usd,
    );
  const positionAt = (t: number) =>
    startPosition +
    sumWhere(
      fills,
      (f) => f.time <= t * 1000,
      (f) => f.size,
    );
  const value = (t: number) => cashThrough(t) + positionAt(t) * ethPriceAt(t);
  return (known: { t: number; equity: number }, t: number) => known.equity + value(t) - value(known.t);
}

const portfolioOf = async (server: VenueServer, user = hedge) =>
  new Map<string, any>((await postTo(server, { type: "portfolio", user })).body);

beforeAll(async () => {
  venue = await startVenueServer({ port: 0, hedgeAccount: hedge, now: () => NOW });
  early = await startVenueServer({ port: 0, hedgeAccount: hedge, now: () => EARLY });
});
afterAll(async () => {
  await venue?.close();
  await early?.close();
});

describe("venue simulator", () => {
  it("reports equity equal to deposits + funding + closed PnL − fees + unrealized PnL of its own records", async () => {
    const r = await venueRecords(early); // every fill is still kept
    expect(Number(r.fills[0].startPosition)).toBe(0);
    const state = (await postTo(early, { type: "clearinghouseState", user: hedge })).body;
    const mark = Number((await postTo(early, { type: "allMids" })).body.ETH);
    const position = state.assetPositions[0].position;

    const fundingUsd = r.funding.reduce((s, x) => s + Number(x.delta.usdc), 0);
    const closedPnl = r.fills.reduce((s, f) => s + Number(f.closedPnl), 0);
    const fees = r.fills.reduce((s, f) => s + Number(f.fee), 0);
    const short = -Number(position.szi);
    const unrealized = (Number(position.entryPx) - mark) * short;
    const deposits = r.ledger.reduce((s, u) => s + Number(u.delta.usdc), 0);
    expect(deposits).toBe(60_000); // the opening margin; the bridge deposit comes on 2026-08-14
    expect(Number(state.marginSummary.accountValue)).toBeCloseTo(
      deposits + fundingUsd + closedPnl - fees + unrealized,
      0,
    );
    expect(Number(state.marginSummary.accountValue)).toBeCloseTo(
      equityFrom(r)({ t: HISTORY_START, equity: 0 }, EARLY),
      2,
    );
    expect(short).toBeCloseTo(-r.fills.reduce((s, f) => s + signedSize(f), 0), 4);
    expect(Number(position.cumFunding.allTime)).toBeCloseTo(-fundingUsd, 4);
    expect(Number(position.positionValue)).toBeCloseTo(short * mark, 4);
  });

  it("trades as a rebalanced hedge: a trim every 15 minutes, taker fees on each, closed PnL at average cost on reductions", async () => {
    const { fills } = await venueRecords(early);
    expect(fills.length).toBeGreaterThan(5_000);
    let position = 0;
    let entry = 0;
    for (const f of fills) {
      expect(Number(f.startPosition)).toBeCloseTo(position, 4);
      expect(Number(f.fee)).toBeCloseTo(Number(f.px) * Number(f.sz) * 0.00035, 5);
      expect(Number(f.px) * Number(f.sz)).toBeGreaterThanOrEqual(10); // the venue's minimum order value
      expect(f.time % 900_000).toBeLessThan(20_000); // filled within 20 s of a 15-minute mark
      const short = -position;
      if (f.dir === "Open Short") {
        expect(f.side).toBe("A");
        expect(Number(f.closedPnl)).toBe(0);
        entry = (entry * short + Number(f.px) * Number(f.sz)) / (short + Number(f.sz));
      } else {
        expect(f.side).toBe("B");
        expect(Number(f.closedPnl)).toBeCloseTo((entry - Number(f.px)) * Number(f.sz), 5);
      }
      position += signedSize(f);
    }
    const marks = new Set(fills.map((f) => Math.floor(f.time / 900_000)));
    expect(marks.size).toBe(fills.length); // one fill per mark at most
    expect(fills.some((f) => f.dir === "Close Short" && Number(f.closedPnl) !== 0)).toBe(true);
  });

  it("keeps only the 10,000 most recent fills; userFillsByTime answers 2,000 at most, oldest first", async () => {
    const kept = await allPages(venue, "userFillsByTime", { user: hedge }, 0, 2_000);
    const all = hedgeFills(NOW); // the simulator's whole log, which no request serves in full
    expect(all.length).toBeGreaterThan(15_000);
    expect(kept.length).toBe(10_000);
    expect(kept.map((f) => f.tid)).toEqual(all.slice(-10_000).map((f) => f.tid));
    expect(kept.every((f, i) => i === 0 || f.time > kept[i - 1].time)).toBe(true);

    const oldest = kept[0];
    expect(oldest.time).toBeGreaterThan((HISTORY_START + 60 * 86_400) * 1000);
    expect(Number(oldest.startPosition)).not.toBe(0); // the account traded before it
    for (const reversed of [false, true]) {
      const before = await post({
        type: "userFillsByTime",
        user: hedge,
        startTime: 0,
        endTime: oldest.time - 1,
        reversed,
      });
      expect(before.body).toEqual([]);
    }

    const first = (await post({ type: "userFillsByTime", user: hedge, startTime: 0 })).body;
    expect(first).toHaveLength(2_000);
    expect(first).toEqual(kept.slice(0, 2_000));
    const newest = (await post({ type: "userFillsByTime", user: hedge, startTime: 0, reversed: true })).body;
    expect(newest).toEqual(kept.slice(-2_000).reverse());
    const latest = (await post({ type: "userFills", user: hedge })).body;
    expect(latest).toEqual(kept.slice(-2_000).reverse()); // userFills: the latest 2,000, newest first
  });

  it("answers userFillsByTime in a few milliseconds", async () => {
    const timings: number[] = [];
    for (let i = 0; i < 10; i++) {
      const started = performance.now();
      await post({ type: "userFillsByTime", user: hedge, startTime: 0 });
      timings.push(performance.now() - started);
    }
    timings.sort((a, b) => a - b);
    expect(timings[5]).toBeLessThan(50);
  });

  it("lists the margin deposits as non-funding ledger updates, paged by time", async () => {
    const ledger = await allPages(venue, "userNonFundingLedgerUpdates", { user: hedge }, 0);
    expect(ledger.map((u) => u.delta)).toEqual([
      { type: "deposit", usdc: "60000.0" },
      { type: "deposit", usdc: "50000.0" },
    ]);
    expect(ledger.every((u) => /^0x[0-9a-f]{64}$/.test(u.hash))).toBe(true);
    expect(ledger.reduce((s, u) => s + Number(u.delta.usdc), 0)).toBe(110_000);
    const later = await post({ type: "userNonFundingLedgerUpdates", user: hedge, startTime: ledger[0].time + 1 });
    expect(later.body).toEqual(ledger.slice(1));
    const other = await post({
      type: "userNonFundingLedgerUpdates",
      user: devnetKey("test:other").address,
      startTime: 0,
    });
    expect(other.body).toEqual([]);
  });

  it("samples the portfolio per window at its cadence, ending now, perp windows equal to the combined ones", async () => {
    const p = await portfolioOf(venue);
    expect([...p.keys()]).toEqual([...WINDOWS, ...WINDOWS.map((w) => PERP_TWIN[w])]);
    const { ledger } = await venueRecords(venue);
    const depositTimes = ledger.map((u) => u.time);
    for (const name of WINDOWS) {
      const { accountValueHistory: values, pnlHistory: pnl, vlm } = p.get(name);
      expect(p.get(PERP_TWIN[name]!)).toEqual(p.get(name));
      expect(typeof vlm).toBe("string");
      expect(values.at(-1)[0]).toBe(NOW * 1000);
      expect(pnl.map((x: any) => x[0])).toEqual(values.map((x: any) => x[0]));
      const onCadence = values.map((x: any) => x[0]).filter((ms: number) => ms % (CADENCE[name]! * 1000) === 0);
      const extra = values.map((x: any) => x[0]).filter((ms: number) => !onCadence.includes(ms));
      expect(extra.every((ms: number) => depositTimes.includes(ms))).toBe(true);
      expect(
        onCadence.every((ms: number, i: number) => i === 0 || ms - onCadence[i - 1] === CADENCE[name]! * 1000),
      ).toBe(true);
      if (name === "allTime") {
        expect(values[0]).toEqual([depositTimes[0], "60000.0"]); // the account opens with its first deposit
      } else {
        expect(values).toHaveLength(SPAN[name]! / CADENCE[name]! + 1);
        expect(values[0][0]).toBe((NOW - SPAN[name]!) * 1000);
      }
    }
    expect(p.get("day").accountValueHistory.at(-1)[1]).toBe(
      (await post({ type: "clearinghouseState", user: hedge })).body.marginSummary.accountValue,
    );
  });

  it("makes each portfolio sample the equity its records give at that time, and PnL the equity net of deposits", async () => {
    const r = await venueRecords(venue);
    const p = await portfolioOf(venue);
    const anchor = { t: NOW, equity: Number(p.get("day").accountValueHistory.at(-1)[1]) };
    const oldestKept = r.fills[0].time;
    const equityAt = equityFrom(r);
    let checked = 0;
    for (const name of WINDOWS) {
      const { accountValueHistory: values, pnlHistory: pnl } = p.get(name);
      values.forEach(([ms, value]: [number, string], i: number) => {
        const deposits = sumWhere(
          r.ledger,
          (u) => u.time <= ms,
          (u) => Number(u.delta.usdc),
        );
        expect(Number(pnl[i][1])).toBeCloseTo(Number(value) - deposits, 5);
        if (ms < oldestKept) return; // the fills before then are gone
        expect(Number(value), `${name} ${new Date(ms).toISOString()}`).toBeCloseTo(equityAt(anchor, ms / 1000), 2);
        checked++;
      });
    }
    expect(checked).toBeGreaterThan(97 + 169 + 181);

    // With every fill still kept, every sample follows from zero at the history's start.
    const fromStart = equityFrom(await venueRecords(early));
    const ep = await portfolioOf(early);
    for (const name of WINDOWS) {
      for (const [ms, value] of ep.get(name).accountValueHistory) {
        expect(Number(value)).toBeCloseTo(fromStart({ t: HISTORY_START, equity: 0 }, ms / 1000), 2);
      }
    }
  });

  it("reports each window's volume as the notional of the fills in it", async () => {
    const { fills } = await venueRecords(venue);
    const p = await portfolioOf(venue);
    for (const name of ["day", "week", "month"]) {
      const since = (NOW - SPAN[name]!) * 1000;
      const notional = sumWhere(
        fills,
        (f) => f.time > since,
        (f) => Number(f.px) * Number(f.sz),
      );
      expect(Number(p.get(name).vlm)).toBeCloseTo(notional, 4);
    }
  });

  it("answers every portfolio window empty for an address it holds no account for", async () => {
    const p = await portfolioOf(venue, devnetKey("test:other").address);
    expect([...p.keys()]).toEqual([...WINDOWS, ...WINDOWS.map((w) => PERP_TWIN[w])]);
    for (const s of p.values()) expect(s).toEqual({ accountValueHistory: [], pnlHistory: [], vlm: "0.0" });
  });

  it("reports signed funding, some negative, nSamples where hours are aggregated, and the position held at each hour", async () => {
    const funding = await allPages(venue, "userFunding", { user: hedge }, Date.parse("2026-05-01T00:00:00Z"));
    expect(funding.length).toBeGreaterThan(500);
    expect(funding.some((r) => Number(r.delta.usdc) < 0)).toBe(true);
    const aggregated = funding.filter((r) => r.delta.nSamples !== null);
    expect(aggregated.length).toBeGreaterThan(0);
    expect(aggregated.every((r) => r.delta.nSamples === 8)).toBe(true);
    const hours = funding.reduce((s, r) => s + (r.delta.nSamples ?? 1), 0);
    expect(hours).toBe(funding.length + aggregated.length * 7);

    const { fills } = await venueRecords(early);
    const hourly = funding.filter((r) => r.delta.nSamples === null && r.time <= EARLY * 1000);
    for (const r of hourly) {
      const position = sumWhere(fills, (f) => f.time <= r.time, signedSize);
      expect(Number(r.delta.szi)).toBeCloseTo(position, 4);
    }
  });

  it("serves 60 days of hourly funding history over pages of 500, with negative stretches", async () => {
    const history = await allPages(venue, "fundingHistory", { coin: "ETH" }, (NOW - 60 * 86_400) * 1000);
    expect(history.length).toBe(60 * 24 + 1); // both ends of the window are on the hour and inclusive
    expect(history.some((h) => Number(h.fundingRate) < 0)).toBe(true);
    expect(history.every((h, i) => i === 0 || h.time - history[i - 1].time === 3_600_000)).toBe(true);
  });

  it("names a 1-hour and an 8-hour venue in predicted fundings", async () => {
    const { body } = await post({ type: "predictedFundings" });
    const eth = new Map((body as any[]).find(([coin]) => coin === "ETH")[1]);
    expect((eth.get("HlPerp") as any).fundingIntervalHours).toBe(1);
    expect((eth.get("BinPerp") as any).fundingIntervalHours).toBe(8);
  });

  it("answers an empty account for other users and 4xx for bad requests", async () => {
    const other = await post({ type: "clearinghouseState", user: devnetKey("test:other").address });
    expect(other.body.marginSummary.accountValue).toBe("0.0");
    expect(other.body.assetPositions).toEqual([]);
    expect((await post({ type: "nope" })).status).toBe(422);
    expect((await post({ type: "clearinghouseState", user: "0x123" })).status).toBe(422);
    expect((await post({ type: "portfolio", user: "0x123" })).status).toBe(422);
    const raw = await fetch(`${venue.url}/info`, { method: "POST", body: "{not json" });
    expect(raw.status).toBe(400);
  });

  it("fails on demand: HTTP 500, then a request that never answers, then back to normal", async () => {
    const fault = (mode: string) =>
      fetch(`${venue.url}/__sim/fault`, { method: "POST", body: JSON.stringify({ mode }) });
    await fault("http500");
    expect((await post({ type: "allMids" })).status).toBe(500);
    await fault("timeout");
    await expect(
      fetch(`${venue.url}/info`, { method: "POST", body: '{"type":"allMids"}', signal: AbortSignal.timeout(300) }),
    ).rejects.toThrow();
    await fault("none");
    expect((await post({ type: "allMids" })).status).toBe(200);
    expect((await fault("bogus")).status).toBe(400);
  });
});
