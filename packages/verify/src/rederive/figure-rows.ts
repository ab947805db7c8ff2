/**
 * The comparison a reader reads: one row per signed figure, the published value beside the one
 * re-derived from the reader's own reads, and whether they are equal. A figure that rests on
 * the venue equity the statement recorded at signing (the venue publishes current equity only, so
 * no one can read it again) is never called equal: re-derived with that recorded equity, it is
 * null when it agrees and false when even that does not reproduce it.
 */
import { z } from "zod";

export type FigureBasis = "chain" | "venue-recorded";

/** A row as published (the CLI's --json `figures`, verify_statement's `figures`). */
export const FigureRowSchema = z.strictObject({
  figure: z.string().describe("the field's path in the signed payload"),
  published: z.unknown().describe("the signed value"),
  rederived: z.unknown().describe("the value re-derived from the reader's RPC (null when a read failed)"),
  equal: z
    .boolean()
    .nullable()
    .describe("null: the figure rests on the venue equity recorded at signing, which no one can read again"),
  basis: z.enum(["chain", "venue-recorded"]),
  proof: z.enum(["proven", "rpc-trusted", "failed"]).optional(),
  restsOn: z
    .array(z.string())
    .optional()
    .describe("the reads without a storage proof (or whose proof failed) it rests on"),
});

export type FigureRow = {
  /** The field's path in the signed payload (`psm_reserves_usdc.psmMint`, `chains[0].total_assets_eth`). */
  figure: string;
  published: unknown;
  rederived: unknown;
  /** true or false for a figure re-derived from chain reads; for one on the recorded venue equity, null (or false when it contradicts even that). */
  equal: boolean | null;
  basis: FigureBasis;
  /**
   * With proofs: "proven" when every read it rests on is proved against the block hash,
   * "rpc-trusted" when some read has no storage proof here (restsOn names them), "failed" when a
   * proof it rests on failed.
   */
  proof?: "proven" | "rpc-trusted" | "failed";
  restsOn?: string[];
};

/**
 * What the statement signs that is not a figure: when and by whom it was signed, where it is
 * served, the block it is pinned to (checked on its own, against the chain). Left out of the rows.
 */
export const SIGNING_FIELDS = new Set([
  "timestamp",
  "schema_version",
  "signer_role",
  "signer_binding",
  "signer_binding_hash",
  "report_endpoint",
  "report_block",
  "report_block_hash",
  "chains[0].chain_name",
]);

/** Every leaf of a JSON value with its path (arrays by index), in document order. */
export function leaves(value: unknown, path = ""): [string, unknown][] {
  if (Array.isArray(value)) return value.flatMap((v, i) => leaves(v, `${path}[${i}]`));
  if (value !== null && typeof value === "object")
    return Object.entries(value).flatMap(([k, v]) => leaves(v, path ? `${path}.${k}` : k));
  return [[path, value]];
}

/**
 * The rows: `published` against `rederived` figure by figure; `alternates` are the same payload
 * re-derived with other venue equities (none, zero, far more), so a figure that moves with the
 * venue equity is known to rest on it, whatever formula carries it there.
 */
export function figureRows(published: unknown, rederived: unknown, alternates: readonly unknown[]): FigureRow[] {
  const mine = new Map(leaves(rederived));
  const others = alternates.map((a) => new Map(leaves(a)));
  return leaves(published)
    .filter(([figure]) => !SIGNING_FIELDS.has(figure))
    .map(([figure, value]) => {
      const again = mine.has(figure) ? mine.get(figure) : undefined;
      const venue = others.some((o) => o.get(figure) !== again);
      // A figure on the recorded venue equity that differs even with that equity contradicts the
      // chain: false. One that agrees is only consistent with a reading no one can repeat: null.
      return venue
        ? { figure, published: value, rederived: again, equal: again === value ? null : false, basis: "venue-recorded" }
        : { figure, published: value, rederived: again, equal: again === value, basis: "chain" };
    });
}
