/**
 * A re-derivation as checks in a verdict (the CLI's, verify_statement's, verify_report's): the
 * block found on the reader's chain, no figure differing, and (with proofs) every storage read
 * proved. The same words wherever a verdict is given.
 */
import type { ProofReport } from "../proofs/read-proof.js";
import { type FigureRow, kindSummary } from "./figure-rows.js";
import type { PinnedBlock } from "./rederive-statement.js";

export type Check = { name: string; ok: boolean; detail?: string };

export function rederivationChecks(
  d: { block: Pick<PinnedBlock, "number" | "hash"> | null; rows: FigureRow[]; proofs: ProofReport | null },
  rpc: string,
): Check[] {
  const differ = d.rows.filter((x) => x.kind === "differs");
  const checks: Check[] = [];
  if (d.block)
    checks.push({ name: "block", ok: true, detail: `${d.block.number} ${d.block.hash} is on the chain of ${rpc}` });
  checks.push({
    name: "figures",
    ok: differ.length === 0,
    detail:
      differ.length === 0
        ? `${kindSummary(d.rows)}, re-derived from ${rpc}`
        : `${differ.length} of ${d.rows.length} re-derived figures differ: ${differ.map((x) => x.figure).join(", ")}`,
  });
  if (d.proofs) checks.push(proofCheck(d.proofs, d.rows));
  return checks;
}

function proofCheck(p: ProofReport, rows: FigureRow[]): Check {
  const failed = p.reads.filter((x) => x.status === "failed");
  const proven = p.reads.filter((x) => x.status === "proven").length;
  const noValue = p.reads.length - proven - failed.length;
  const unproven = rows.filter((r) => r.proof === "unproven");
  const uncovered = [...new Set(unproven.flatMap((r) => r.restsOn ?? []))];
  return {
    name: "proofs",
    ok: p.ok,
    detail: !p.header.ok
      ? p.header.detail
      : failed.length > 0
        ? failed
            .map((x) => `${x.read}: ${x.detail}${x.slot ? ` (account ${x.account}, slot ${x.slot})` : ""}`)
            .join("; ")
        : `${proven} reads proved by execution over state proven against block hash ${p.anchor.blockHash} (${p.anchor.source})${noValue > 0 ? `; ${noValue} answered nothing to prove` : ""}${unproven.length > 0 ? `; ${unproven.length} figures rest on what no proof covers: ${uncovered.join("; ")}` : ""}`,
  };
}
