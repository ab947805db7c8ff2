/**
 * provenRows: a figure rests on a failed read when it moves as that read's answer changes (the
 * reads replayed, the figures assembled again), and only then fails; a figure resting on chain
 * data no proof covers is unproven, named; a failed header fails every figure.
 */
import type { PublicClient } from "viem";
import { describe, expect, it } from "vitest";
import { PinnedReader, type ReadSpec } from "../read-plan/pinned-reader.js";
import type { FigureRow } from "../rederive/figure-rows.js";
import { provenRows } from "./proven-rows.js";
import type { ProofReport } from "./read-proof.js";
import { describeRead, type RecordedRead } from "./recorded-reads.js";

const supply: ReadSpec = { to: "0x0000000000000000000000000000000000000001", signature: "totalSupply()(uint256)" };
const paused: ReadSpec = { to: "0x0000000000000000000000000000000000000002", signature: "paused()(bool)" };
const reads: RecordedRead[] = [
  { kind: "call", spec: supply, outcome: { ok: true, value: 5n } },
  { kind: "call", spec: paused, outcome: { ok: true, value: false } },
];
const base = new PinnedReader({} as PublicClient, 1n, "http://rpc");

/** The document as the assembler builds it from the (replayed) reads. */
async function assemble(reader: PinnedReader) {
  const s = await reader.call<bigint>(supply);
  const p = await reader.call<boolean>(paused);
  return { supply: String(s), doubled: String(s * 2n), paused: p, precedent: 3 };
}

const rows: FigureRow[] = ["supply", "doubled", "paused", "precedent"].map((figure) => ({
  figure,
  published: null,
  rederived: null,
  equal: true,
  kind: "equal",
}));

const report = (statuses: ("proven" | "failed")[], header = true): ProofReport => ({
  anchor: { blockHash: "0x01", source: "a test" },
  header: { ok: header, detail: header ? "ok" : "not that block's header", stateRoot: null },
  reads: reads.map((r, i) => ({ read: describeRead(r), status: statuses[i]!, detail: "" })),
  ok: header && statuses.every((x) => x !== "failed"),
});

const proofsOf = (out: FigureRow[]) => Object.fromEntries(out.map((r) => [r.figure, [r.proof, r.restsOn ?? []]]));

describe("provenRows", () => {
  it("fails only the figures that move with the failed read, naming it", async () => {
    const out = await provenRows(rows, report(["failed", "proven"]), reads, (replay) => assemble(replay(base)));
    expect(proofsOf(out)).toEqual({
      supply: ["failed", [describeRead(reads[0]!)]],
      doubled: ["failed", [describeRead(reads[0]!)]],
      paused: ["proven", []],
      precedent: ["proven", []],
    });
  });

  it("names the figures resting on what no proof covers as unproven", async () => {
    const out = await provenRows(rows, report(["proven", "proven"]), reads, (replay) => assemble(replay(base)), {
      figures: ["precedent"],
      source: "the logs",
    });
    expect(proofsOf(out).precedent).toEqual(["unproven", ["the logs"]]);
    expect(out.filter((r) => r.proof === "proven")).toHaveLength(3);
  });

  it("fails every figure when the header is not the trusted block's", async () => {
    const out = await provenRows(rows, report(["proven", "proven"], false), reads, (replay) => assemble(replay(base)));
    expect(out.every((r) => r.proof === "failed")).toBe(true);
  });
});
