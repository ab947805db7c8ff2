/**
 * MCP tool results made from the API's own HTTP answers: a 200 is the report (its JSON as
 * structured content and, for clients that read text only, the bytes as served); anything else
 * is a tool error that says the route's stable error code and message, so an agent sees the same
 * refusal a REST caller gets.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

/** How a tool reaches a route of the app: an in-process request, answered as HTTP would be. */
export type RouteCall = (path: string, init?: RequestInit) => Promise<Response>;

/** A tool error: text only (structured content would be checked against the tool's output schema). */
export function toolError(text: string): CallToolResult {
  return { isError: true, content: [{ type: "text", text }] };
}

/** The error a route answered, in words: `code: message (HTTP status)`, then its details as JSON. */
export function describeRefusal(status: number, text: string): string {
  const e = errorOf(text);
  if (typeof e?.code !== "string" || typeof e.message !== "string")
    return `HTTP ${status}: ${text.slice(0, 500) || "(empty body)"}`;
  const details = e.details && typeof e.details === "object" && Object.keys(e.details).length > 0 ? e.details : null;
  return `${e.code}: ${e.message} (HTTP ${status})${details ? `\n${JSON.stringify(details)}` : ""}`;
}

type ErrorShape = { code?: unknown; message?: unknown; details?: unknown };

function errorOf(text: string): ErrorShape | undefined {
  try {
    return (JSON.parse(text) as { error?: ErrorShape } | null)?.error;
  } catch {
    return undefined; // not our JSON error shape (a proxy's page): shown as it came, shortened
  }
}

/** A route's answer as a tool result: 200 → the JSON report, anything else → a tool error. */
export async function resultOf(res: Response): Promise<CallToolResult> {
  const text = await res.text();
  if (res.status !== 200) return toolError(describeRefusal(res.status, text));
  return { content: [{ type: "text", text }], structuredContent: JSON.parse(text) as Record<string, unknown> };
}

/**
 * A tool's parsed arguments back as the query string its route parses. The route's schema
 * turned strings into numbers and bigints; String() gives back a string the same schema reads
 * as the same value (the route validates it again: one set of rules).
 */
export function queryOf(args: Record<string, unknown> | undefined): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(args ?? {}))
    if (v !== undefined && v !== null) q.set(k, typeof v === "object" ? JSON.stringify(v) : String(v));
  const s = q.toString();
  return s ? `?${s}` : "";
}
