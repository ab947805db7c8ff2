import { describe, expect, it } from "vitest";
import { FINAL_DEPTH } from "../http/rendered.js";
import { type PorKeyParts, porReportKey } from "./por-report-key.js";

const parts = (o: Partial<PorKeyParts> = {}): PorKeyParts => ({
  roles: "true,true,false",
  rpcChainLength: 1_000,
  blockNumber: 900n,
  headBlockNumber: 1_000n,
  atHead: false,
  venueReadAtMs: undefined,
  venue: { source: "recorded", ageSeconds: 12, reason: null, statement: "0xab" },
  ...o,
});

describe("porReportKey", () => {
  it("at a final block, a new chain or indexed head keeps the report (its bytes are served immutable)", () => {
    expect(porReportKey(parts({ rpcChainLength: 1_001, headBlockNumber: 1_001n }))).toBe(porReportKey(parts()));
  });

  it("at a final block, a role read or the venue basis still makes a new report", () => {
    expect(porReportKey(parts({ roles: "true,null,false" }))).not.toBe(porReportKey(parts()));
    const venue = { source: "none", ageSeconds: null, reason: "no reading", statement: null };
    expect(porReportKey(parts({ venue }))).not.toBe(porReportKey(parts()));
  });

  it("within FINAL_DEPTH of the head, or at the head, every new head is a new report", () => {
    const recent = { blockNumber: 1_000n - FINAL_DEPTH + 1n };
    expect(porReportKey(parts({ ...recent, headBlockNumber: 1_001n }))).not.toBe(porReportKey(parts(recent)));
    const head = { blockNumber: 1_000n, atHead: true };
    expect(porReportKey(parts({ ...head, rpcChainLength: 1_001 }))).not.toBe(porReportKey(parts(head)));
  });
});
