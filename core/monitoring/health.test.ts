import { describe, expect, it } from "vitest";
import { buildHealth } from "./health.js";

const base = { indexedBlock: 100n, chainHead: 103n, statementSignedAt: 1_000, now: 1_600, maxLagBlocks: 10, maxStatementAgeSeconds: 7200 };

describe("buildHealth", () => {
  it("ok with the lag and the statement's age", () => {
    expect(buildHealth(base)).toMatchObject({ ok: true, indexedBlock: 100, chainHead: 103, lagBlocks: 3, statementAgeSeconds: 600, problems: [] });
  });

  it("not ok, with the reason, when the indexer trails, the chain is silent, or the statement is late or missing", () => {
    expect(buildHealth({ ...base, chainHead: 200n }).problems).toEqual(["the indexer is 100 blocks behind the chain (limit 10)"]);
    expect(buildHealth({ ...base, chainHead: null })).toMatchObject({ ok: false, lagBlocks: null });
    expect(buildHealth({ ...base, now: 9_000 }).problems[0]).toMatch(/8000 s old/);
    expect(buildHealth({ ...base, statementSignedAt: null })).toMatchObject({ ok: false, statementAgeSeconds: null, problems: ["no signed statement is published"] });
  });
});
