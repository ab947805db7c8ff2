import { describe, expect, it } from "vitest";
import { buildHealth } from "./health.js";

const up = { ok: true, detail: "answered" };
const dependencies = { database: up, operatorStore: up, chain: up, venue: up };
const base = {
  indexedBlock: 100n,
  chainHead: 103n,
  statementSignedAt: 1_000,
  now: 1_600,
  maxLagBlocks: 10,
  maxStatementAgeSeconds: 7200,
  dependencies,
};

describe("buildHealth", () => {
  it("ok with the lag and the statement's age", () => {
    expect(buildHealth(base)).toMatchObject({
      ok: true,
      indexedBlock: 100,
      chainHead: 103,
      lagBlocks: 3,
      statementAgeSeconds: 600,
      problems: [],
    });
  });

  it("not ok, with the reason, when the indexer trails, the chain is silent, or the statement is late or missing", () => {
    expect(buildHealth({ ...base, chainHead: 200n }).problems).toEqual([
      "the indexer is 100 blocks behind the chain (limit 10)",
    ]);
    expect(buildHealth({ ...base, chainHead: null })).toMatchObject({ ok: false, lagBlocks: null });
    expect(buildHealth({ ...base, now: 9_000 }).problems[0]).toMatch(/8000 s old/);
    expect(buildHealth({ ...base, statementSignedAt: null })).toMatchObject({
      ok: false,
      statementAgeSeconds: null,
      problems: ["no signed statement is published"],
    });
  });

  it("names the dependency that is down, and only that: not a missing checkpoint or statement it hides", () => {
    const down = { ok: false, detail: "database_unavailable" };
    const h = buildHealth({
      ...base,
      indexedBlock: null,
      statementSignedAt: null,
      dependencies: { ...dependencies, database: down, operatorStore: down },
    });
    expect(h).toMatchObject({ ok: false, dependencies: { database: down, operatorStore: down, chain: up } });
    expect(h.problems).toEqual([
      "the database is unavailable: database_unavailable",
      "the operator store is unavailable: database_unavailable",
    ]);
  });

  it("a venue that does not answer is reported, and does not make the service unhealthy", () => {
    const h = buildHealth({
      ...base,
      dependencies: { ...dependencies, venue: { ok: false, detail: "venue read failed: venue answered 500" } },
    });
    expect(h.ok).toBe(true);
    expect(h.dependencies.venue.ok).toBe(false);
  });
});
