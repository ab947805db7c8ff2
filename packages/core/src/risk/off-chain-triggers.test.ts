import { describe, expect, it } from "vitest";
import { STATEMENT_MAX_AGE_SECONDS } from "../attestation/verify.js";
import { type OffChainInputs, offChainTriggers, VENUE_EQUITY_MAX_AGE_SECONDS } from "./off-chain-triggers.js";

const NOW = 1_800_000_000;
const base: OffChainInputs = {
  atHead: true,
  venueAccount: "0xabc",
  venue: { equityUsd: 1234.5, timeMs: (NOW - 3) * 1000 },
  venueReason: null,
  statementSignedAt: NOW - 600,
  now: NOW,
};
const byId = (i: OffChainInputs) => Object.fromEntries(offChainTriggers(i).map((t) => [t.id, t]));

describe("offChainTriggers", () => {
  it("at the head with the venue answering: reachable, its equity, the answer's age by the venue's own clock, the statement's age", () => {
    const t = byId(base);
    expect(t["venue.reachable"]).toMatchObject({ value: true, safe: true });
    expect(t["venue.equityUsd"]).toMatchObject({ value: 1234.5, safe: true });
    expect(t["venue.equityAgeSeconds"]).toMatchObject({ value: 3, safe: true });
    expect(t["statement.ageSeconds"]).toMatchObject({ value: 600, safe: true });
  });

  it("limits: equity older than a minute and a statement older than two hours are out of their safe state", () => {
    const t = byId({
      ...base,
      venue: { equityUsd: 1, timeMs: (NOW - VENUE_EQUITY_MAX_AGE_SECONDS - 1) * 1000 },
      statementSignedAt: NOW - STATEMENT_MAX_AGE_SECONDS - 1,
    });
    expect(t["venue.equityAgeSeconds"]).toMatchObject({ value: 61, safe: false });
    expect(t["statement.ageSeconds"]).toMatchObject({ value: 7201, safe: false });
    expect(byId({ ...base, venue: { equityUsd: 1, timeMs: (NOW - 60) * 1000 } })["venue.equityAgeSeconds"]!.safe).toBe(
      true,
    );
  });

  it("a venue down: unreachable and unsafe, equity and its age null with the reason", () => {
    const t = byId({ ...base, venue: null, venueReason: "venue read failed: HTTP 500" });
    expect(t["venue.reachable"]).toMatchObject({ value: false, safe: false, detail: "venue read failed: HTTP 500" });
    expect(t["venue.equityUsd"]).toMatchObject({ value: null, safe: false });
    expect(t["venue.equityAgeSeconds"]).toMatchObject({ value: null, safe: false });
  });

  it("an answer without a time has an unknown age, not zero", () => {
    expect(byId({ ...base, venue: { equityUsd: 1, timeMs: null } })["venue.equityAgeSeconds"]).toMatchObject({
      value: null,
      safe: false,
      detail: "the venue's answer carries no time",
    });
  });

  it("at a past block the venue is unknown, never judged by today's read; no statement is unsafe", () => {
    const t = byId({ ...base, atHead: false, venue: null, venueReason: "past block", statementSignedAt: null });
    for (const id of ["venue.reachable", "venue.equityUsd", "venue.equityAgeSeconds"])
      expect(t[id]).toMatchObject({ value: null, safe: null });
    expect(t["statement.ageSeconds"]).toMatchObject({ value: null, safe: false });
  });
});
