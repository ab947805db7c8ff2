/**
 * Discord webhooks as Discord checks them: content, embeds or files required; content ≤ 2000;
 * ≤ 10 embeds; title ≤ 256, description ≤ 4096, ≤ 25 fields (name ≤ 256, value ≤ 1024, both
 * non-empty), colour an integer, timestamp ISO8601, ≤ 6000 characters over all embeds. Answers
 * 204 (200 with the message under ?wait=true), 400 {code: 50035, message: "Invalid Form Body"}.
 */
import { type Answer, type Receiver, startReceiver } from "./http-receiver.js";

type Embed = {
  title?: string;
  description?: string;
  color?: unknown;
  timestamp?: unknown;
  footer?: { text?: string };
  fields?: Array<{ name?: string; value?: string }>;
};

function embedErrors(embeds: Embed[]): string[] {
  const errors: string[] = [];
  if (embeds.length > 10) errors.push("embeds: Must be 10 or fewer in length.");
  let total = 0;
  for (const e of embeds) {
    if ((e.title ?? "").length > 256) errors.push("embeds.title: Must be 256 or fewer in length.");
    if ((e.description ?? "").length > 4096) errors.push("embeds.description: Must be 4096 or fewer in length.");
    if (e.color !== undefined && !Number.isInteger(e.color)) errors.push("embeds.color: Value is not int.");
    if (e.timestamp !== undefined && Number.isNaN(Date.parse(e.timestamp as string)))
      errors.push("embeds.timestamp: Could not parse ISO8601.");
    const fields = e.fields ?? [];
    if (fields.length > 25) errors.push("embeds.fields: Must be 25 or fewer in length.");
    for (const f of fields) {
      if (!f.name || f.name.length > 256) errors.push("embeds.fields.name: invalid length");
      if (!f.value || f.value.length > 1024) errors.push("embeds.fields.value: invalid length");
      total += (f.name ?? "").length + (f.value ?? "").length;
    }
    total += (e.title ?? "").length + (e.description ?? "").length + (e.footer?.text ?? "").length;
  }
  if (total > 6000) errors.push("embeds: Embed size exceeds maximum size of 6000");
  return errors;
}

export function checkDiscord(path: string, body: unknown): Answer {
  const b = (body ?? {}) as { content?: unknown; embeds?: unknown };
  const errors: string[] = [];
  if (b.content === undefined && b.embeds === undefined)
    return { status: 400, body: { code: 50006, message: "Cannot send an empty message" } };
  if (b.content !== undefined && (typeof b.content !== "string" || b.content.length > 2000))
    errors.push("content: Must be 2000 or fewer in length.");
  if (b.embeds !== undefined) {
    if (!Array.isArray(b.embeds)) errors.push("embeds: Must be an array.");
    else errors.push(...embedErrors(b.embeds as Embed[]));
  }
  if (errors.length) return { status: 400, body: { code: 50035, message: "Invalid Form Body", errors } };
  return path.includes("wait=true") ? { status: 200, body: { id: "1", ...b } } : { status: 204 };
}

export const startDiscordReceiver = (): Promise<Receiver> => startReceiver((path, body) => checkDiscord(path, body));

export const discordRateLimited = (seconds: number): Answer => ({
  status: 429,
  body: { message: "You are being rate limited.", retry_after: seconds, global: false },
  headers: { "retry-after": String(Math.ceil(seconds)) },
});
