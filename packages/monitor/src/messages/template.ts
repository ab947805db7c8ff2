/**
 * Operator overrides of a kind's title and lines: `{{field}}` is replaced by the message's
 * field (dotted paths reach nested ones, `{{retracted.amount}}`); a missing field renders as
 * empty. Deliberately no logic: anything conditional belongs in a renderer.
 */
export type AlertTemplate = { title?: string; lines?: string[] };

export function applyTemplate(template: string, message: Record<string, unknown>): string {
  return template.replace(/\{\{\s*([\w.]+)\s*\}\}/g, (_, path: string) => {
    let v: unknown = message;
    for (const k of path.split("."))
      v = v != null && typeof v === "object" ? (v as Record<string, unknown>)[k] : undefined;
    if (v == null) return "";
    return typeof v === "object" ? JSON.stringify(v) : String(v);
  });
}
