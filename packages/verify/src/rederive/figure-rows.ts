/**
 * The comparison a reader reads: one row per published figure, the published value beside the one
 * re-derived from the reader's own reads, and a kind from one vocabulary for every report:
 *
 * - `equal` / `differs`: re-derived from the reader's own chain and venue reads;
 * - `declared`: operator policy or configuration (the network document says it), never "equal";
 * - `venue-now`: rests on a current-only venue answer, checked against the answer as recorded
 *   (and, while the report is young, read again and shown beside it);
 * - `bracketed`: rests on a venue equity recorded at a signed time, which lies inside the venue's
 *   account value history around that time;
 * - `beyond-retention`: rests on venue records the venue no longer serves (fills older than the
 *   10,000 it keeps).
 *
 * `equal` is true for the kind `equal` only, false for `differs` only, null otherwise.
 */
import { z } from "zod";

export const FIGURE_KINDS = ["equal", "differs", "declared", "venue-now", "bracketed", "beyond-retention"] as const;
export type FigureKind = (typeof FIGURE_KINDS)[number];

/** A row as published (the CLI's --json `figures`, verify_statement's and verify_report's `figures`). */
export const FigureRowSchema = z.strictObject({
  figure: z.string().describe("the field's path in the published document"),
  published: z.unknown().describe("the published value"),
  rederived: z
    .unknown()
    .describe(
      "the value re-derived from the reader's reads (with a recorded or declared input where the kind says so)",
    ),
  equal: z.boolean().nullable().describe("true: kind equal; false: kind differs; null: any other kind"),
  kind: z.enum(FIGURE_KINDS),
  note: z.string().optional().describe("where a declared value is declared, when the venue answered, the bracket"),
  now: z.unknown().optional().describe("venue-now: the value with the venue's answer read again now"),
  proof: z
    .enum(["proven", "failed", "unproven"])
    .optional()
    .describe(
      "with proofs: every read it rests on executed over proven state to the RPC's answer; one did not; or it rests on chain data no proof covers (a report's logs)",
    ),
  restsOn: z
    .array(z.string())
    .optional()
    .describe("the reads whose proof failed that it rests on, or the unproven data"),
});

export type FigureRow = {
  /** The field's path in the published document (`psm_reserves_usdc.psmMint`, `chains[0].total_assets_eth`). */
  figure: string;
  published: unknown;
  rederived: unknown;
  equal: boolean | null;
  kind: FigureKind;
  note?: string;
  now?: unknown;
  /**
   * With proofs: "proven" when every read it rests on, executed over state proven against the
   * block hash, returned what the RPC answered; "failed" when one did not (restsOn names them);
   * "unproven" when it rests on chain data no proof covers (a report's logs, named in restsOn).
   */
  proof?: "proven" | "failed" | "unproven";
  restsOn?: string[];
};

export const equalOf = (kind: FigureKind): boolean | null =>
  kind === "equal" ? true : kind === "differs" ? false : null;

/** Every leaf of a JSON value with its path (arrays by index), in document order. */
export function leaves(value: unknown, path = ""): [string, unknown][] {
  if (Array.isArray(value)) return value.flatMap((v, i) => leaves(v, `${path}[${i}]`));
  if (value !== null && typeof value === "object")
    return Object.entries(value).flatMap(([k, v]) => leaves(v, path ? `${path}.${k}` : k));
  return [[path, value]];
}

/** How many rows of each kind, in the vocabulary's order: "52 equal, 9 declared, 11 venue-now". */
export function countByKind(rows: readonly FigureRow[]): Record<FigureKind, number> {
  const counts = Object.fromEntries(FIGURE_KINDS.map((k) => [k, 0])) as Record<FigureKind, number>;
  for (const r of rows) counts[r.kind]++;
  return counts;
}

export function kindSummary(rows: readonly FigureRow[]): string {
  const counts = countByKind(rows);
  const parts = FIGURE_KINDS.filter((k) => counts[k] > 0 || k === "differs").map((k) => `${counts[k]} ${k}`);
  return `${rows.length} figures: ${parts.join(", ")}`;
}
