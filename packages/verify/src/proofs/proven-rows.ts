/**
 * Each figure's proof from its reads' proofs: a figure is `proven` when no read it rests on
 * failed, `failed` when one did (restsOn names them), and every figure fails when the header did;
 * one resting on chain data no proof covers (a report's logs) is `unproven`, naming it.
 * Which figures rest on a failed read is found by assembling again with that read's answer changed
 * (perturb.ts): whatever moves rests on it.
 */
import type { Hex } from "viem";
import type { PinnedReader } from "../read-plan/pinned-reader.js";
import { type FigureRow, leaves } from "../rederive/figure-rows.js";
import { perturbed } from "./perturb.js";
import type { ProofReport } from "./read-proof.js";
import { type RecordedRead, ReplayReader } from "./recorded-reads.js";

/** Past this many failed reads each figure is said to rest on all of them (each would cost an assembly). */
const MOST_ATTRIBUTED = 16;

/** Assembles the document again from replayed reads (`replay` makes the reader they are served by). */
export type Reassemble = (replay: (from: PinnedReader) => PinnedReader) => Promise<unknown>;

/** The proof report of a trusted hash that is not the block the reads were made at. */
export function anchorElsewhere(anchor: ProofReport["anchor"], hash: Hex): ProofReport {
  return {
    anchor,
    header: {
      ok: false,
      detail: `the trusted block hash ${anchor.blockHash} is not the hash of the block the figures were read at, ${hash}`,
      stateRoot: null,
    },
    reads: [],
    ok: false,
  };
}

/** Figures that rest on chain data no proof here covers: which ("all" or their paths), and what it is. */
export type Unproven = { figures: readonly string[] | "all"; source: string };

export async function provenRows(
  rows: FigureRow[],
  proofs: ProofReport,
  reads: readonly RecordedRead[],
  reassemble: Reassemble,
  unproven?: Unproven,
): Promise<FigureRow[]> {
  const byReads = await rowsByReads(rows, proofs, reads, reassemble);
  if (!unproven) return byReads;
  const listed = unproven.figures === "all" ? null : new Set(unproven.figures);
  return byReads.map((r) =>
    r.proof === "proven" && (listed === null || listed.has(r.figure))
      ? { ...r, proof: "unproven", restsOn: [unproven.source] }
      : r,
  );
}

async function rowsByReads(
  rows: FigureRow[],
  proofs: ProofReport,
  reads: readonly RecordedRead[],
  reassemble: Reassemble,
): Promise<FigureRow[]> {
  if (!proofs.header.ok) return rows.map((r) => ({ ...r, proof: "failed", restsOn: [] }));
  const failed = proofs.reads.flatMap((p, i) => (p.status === "failed" ? [{ proof: p, read: reads[i]! }] : []));
  if (failed.length === 0) return rows.map((r) => ({ ...r, proof: "proven" }));
  if (failed.length > MOST_ATTRIBUTED)
    return rows.map((r) => ({ ...r, proof: "failed", restsOn: failed.map((f) => f.proof.read) }));
  const before = new Map(leaves(await reassemble((from) => new ReplayReader(from, reads))));
  const restsOn = new Map<string, string[]>();
  // A read the RPC said failed, which proven state answers: what rests on it cannot be probed by
  // changing an answer it never gave, so every figure rests on it.
  const unprobed = failed.filter((f) => perturbed(f.read) === null).map((f) => f.proof.read);
  for (const f of failed) {
    const change = perturbed(f.read);
    if (!change) continue;
    const after = await reassemble((from) => new ReplayReader(from, reads, change));
    for (const [figure, value] of leaves(after)) {
      if (before.get(figure) === value) continue;
      restsOn.set(figure, [...(restsOn.get(figure) ?? []), f.proof.read]);
    }
  }
  return rows.map((r) => {
    const on = [...(restsOn.get(r.figure) ?? []), ...unprobed];
    return on.length > 0 ? { ...r, proof: "failed", restsOn: on } : { ...r, proof: "proven" };
  });
}
