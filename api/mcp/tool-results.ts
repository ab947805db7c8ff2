/**
 * MCP tool results made from the API's own HTTP answers: a 200 is the report (its JSON as
 * structured content and, for clients that read text only, the bytes as served); anything else
 * is a tool error that says the route's stable error code and message, so an agent sees the same
 * refusal a REST caller gets.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";

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
  return describeError({ code: e.code, message: e.message, details: e.details }, status);
}

/** An error in the API's words: `code: message`, the HTTP status when a route answered it, then its details as JSON. */
export function describeError(e: { code: string; message: string; details?: unknown }, status?: number): string {
  const details = e.details && typeof e.details === "object" && Object.keys(e.details).length > 0 ? e.details : null;
  return `${e.code}: ${e.message}${status === undefined ? "" : ` (HTTP ${status})`}${details ? `\n${JSON.stringify(details)}` : ""}`;
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

/**
 * A tool's input schema that advertises `schema` (tools/list shows its JSON Schema) and lets any
 * argument object through, so that the route behind the tool checks the arguments and refuses
 * them in its own words (`invalid_block: … (HTTP 400)`), as it refuses a REST caller. With
 * `schema` itself the SDK would check first and answer in its words ("MCP error -32602: Input
 * validation error: …"). zod puts a schema's metadata into its JSON Schema.
 */
export function checkedByTheRoute(schema: z.ZodObject): z.ZodObject {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { io: "input" });
  return z.looseObject({}).meta(json);
}
