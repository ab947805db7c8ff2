/**
 * Which content coding to answer with, from a request's Accept-Encoding (RFC 9110 §12.5.3):
 * brotli when the client takes it (smaller for JSON), else gzip, else none. A coding refused
 * with `q=0` is never chosen, also when `*` would allow it; no header at all means no coding
 * (RFC 9110 allows any, but clients that send none expect identity in practice).
 */
export type ContentCoding = "br" | "gzip";

const PREFERENCE: readonly ContentCoding[] = ["br", "gzip"];

export function negotiateEncoding(header: string | null | undefined): ContentCoding | null {
  if (!header) return null;
  const weights = new Map<string, number>();
  for (const part of header.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    if (!name) continue;
    const q = params.map((p) => /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(p)).find(Boolean);
    const weight = q ? Number(q[1]) : 1;
    weights.set(name.trim() === "x-gzip" ? "gzip" : name.trim(), Number.isFinite(weight) ? weight : 0);
  }
  const weightOf = (coding: ContentCoding) => weights.get(coding) ?? weights.get("*") ?? 0;
  let best: ContentCoding | null = null;
  for (const coding of PREFERENCE)
    if (weightOf(coding) > 0 && (best === null || weightOf(coding) > weightOf(best))) best = coding;
  return best;
}
