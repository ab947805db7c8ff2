/**
 * Which figures rest on a read: the read's answer changed (doubled, flipped, one more), the
 * figures assembled again from the replayed reads, and every figure that moved rests on it. This
 * holds whatever formula carries the read into the figure, so no table of dependencies can drift
 * from the assembler.
 */
import { zeroAddress } from "viem";
import type { RecordedRead } from "./recorded-reads.js";

function changed(v: unknown): unknown {
  if (typeof v === "bigint") return v === 0n ? 10n ** 18n : v * 2n;
  if (typeof v === "boolean") return !v;
  if (typeof v === "number") return v + 1;
  if (Array.isArray(v)) return v.length > 0 && typeof v[0] === "string" ? [...v, zeroAddress] : v.map(changed);
  return v;
}

/** The read with a different answer, or null when it had none (a failed read moves nothing). */
export function perturbed(r: RecordedRead): RecordedRead | null {
  if (r.kind === "balance") return r.value === null ? null : { ...r, value: changed(r.value) as bigint };
  if (r.kind === "code") return r.has === null ? null : { ...r, has: !r.has };
  if (r.kind === "probe")
    return typeof r.answer === "object" ? null : { ...r, answer: r.answer === "returned" ? "reverts" : "returned" };
  if (!r.outcome.ok) return null;
  return { ...r, outcome: { ok: true, value: changed(r.outcome.value) } };
}
