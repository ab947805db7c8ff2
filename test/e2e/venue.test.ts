/**
 * The venue simulator answers the Hyperliquid info requests consistently: the equity it
 * reports is what its own fills and funding payments add up to, records page at 500, funding
 * is signed (and sometimes negative), nSamples appears where records aggregate hours, and the
 * fault switch fails requests the ways a real venue does.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devnetKey } from "../../devnet/keys.js";
import { startVenueServer, type VenueServer } from "../../devnet/venue/server.js";

const NOW = Math.floor(Date.parse("2026-11-20T00:00:00Z") / 1000);
const hedge = devnetKey("test:hedge").address;
let venue: VenueServer;

const post = async (body: unknown) => {
  const res = await fetch(`${venue.url}/info`, { method: "POST", body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as any };
};

/** Follows startTime pagination until a page comes back empty. */
async function allPages(type: string, extra: object, start: number): Promise<any[]> {
  const out: any[] = [];
  let startTime = start;
  for (;;) {
    const { body } = await post({ type, ...extra, startTime });
    if (body.length === 0) return out;
    expect(body.length).toBeLessThanOrEqual(500);
    out.push(...body);
    startTime = body.at(-1).time + 1;
  }
}

beforeAll(async () => {
  venue = await startVenueServer({ port: 0, hedgeAccount: hedge, now: () => NOW });
});
afterAll(() => venue?.close());

describe("venue simulator", () => {
  it("reports equity equal to deposits + funding + closed PnL − fees + unrealized PnL of its own records", async () => {
    const funding = await allPages("userFunding", { user: hedge }, Date.parse("2026-05-01T00:00:00Z"));
    const fills = (await post({ type: "userFills", user: hedge })).body as any[];
    const state = (await post({ type: "clearinghouseState", user: hedge })).body;
    const mark = Number((await post({ type: "allMids" })).body.ETH);
    const position = state.assetPositions[0].position;

    const fundingUsd = funding.reduce((s, r) => s + Number(r.delta.usdc), 0);
    const closedPnl = fills.reduce((s, f) => s + Number(f.closedPnl), 0);
    const fees = fills.reduce((s, f) => s + Number(f.fee), 0);
    const short = -Number(position.szi);
    const unrealized = (Number(position.entryPx) - mark) * short;
    const deposits = 60_000 + 50_000; // opening margin, then the on-chain bridge deposit of 2026-08-14
    expect(Number(state.marginSummary.accountValue)).toBeCloseTo(
      deposits + fundingUsd + closedPnl - fees + unrealized,
      0,
    );
    expect(Number(position.cumFunding.allTime)).toBeCloseTo(-fundingUsd, 4);
    expect(Number(position.positionValue)).toBeCloseTo(short * mark, 4);
  });

  it("lists fills newest first, with taker fees and PnL only on closes", async () => {
    const fills = (await post({ type: "userFills", user: hedge })).body as any[];
    expect(fills.length).toBeGreaterThanOrEqual(4);
    expect(fills[0].time).toBeGreaterThan(fills.at(-1).time);
    for (const f of fills) {
      expect(Number(f.fee)).toBeCloseTo(Number(f.px) * Number(f.sz) * 0.00035, 5);
      if (f.dir === "Open Short") expect(Number(f.closedPnl)).toBe(0);
    }
    expect(fills.some((f) => f.dir === "Close Short" && Number(f.closedPnl) !== 0)).toBe(true);
  });

  it("reports signed funding, some negative, and nSamples where hours are aggregated", async () => {
    const funding = await allPages("userFunding", { user: hedge }, Date.parse("2026-05-01T00:00:00Z"));
    expect(funding.length).toBeGreaterThan(500);
    expect(funding.some((r) => Number(r.delta.usdc) < 0)).toBe(true);
    const aggregated = funding.filter((r) => r.delta.nSamples !== null);
    expect(aggregated.length).toBeGreaterThan(0);
    expect(aggregated.every((r) => r.delta.nSamples === 8)).toBe(true);
    const hours = funding.reduce((s, r) => s + (r.delta.nSamples ?? 1), 0);
    expect(hours).toBe(funding.length + aggregated.length * 7);
  });

  it("serves 60 days of hourly funding history over pages of 500, with negative stretches", async () => {
    const history = await allPages("fundingHistory", { coin: "ETH" }, (NOW - 60 * 86_400) * 1000);
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
