/**
 * Slack incoming webhooks as Slack checks them: JSON with a non-empty `text` (or blocks),
 * text ≤ 40,000 chars, ≤ 50 blocks of known types, header plain_text ≤ 150, section text ≤ 3000.
 * Answers 200 "ok", 400 invalid_payload / no_text, as Slack does (plain-text bodies).
 */
import { type Answer, type Receiver, startReceiver } from "./http-receiver.js";

const BLOCK_TYPES = new Set(["header", "section", "context", "divider", "actions", "image", "rich_text"]);

export function checkSlack(body: unknown): Answer {
  if (!body || typeof body !== "object") return { status: 400, body: "invalid_payload" };
  const b = body as { text?: unknown; blocks?: unknown };
  if (b.blocks !== undefined) {
    if (!Array.isArray(b.blocks) || b.blocks.length > 50) return { status: 400, body: "invalid_blocks" };
    for (const block of b.blocks as Array<Record<string, { type?: string; text?: string }> & { type?: string }>) {
      if (!block || !BLOCK_TYPES.has(block.type as string)) return { status: 400, body: "invalid_blocks" };
      if (block.type === "header" && (block.text?.type !== "plain_text" || (block.text.text ?? "").length > 150))
        return { status: 400, body: "invalid_blocks" };
      if (block.type === "section" && (typeof block.text?.text !== "string" || block.text.text.length > 3000))
        return { status: 400, body: "invalid_blocks" };
    }
  }
  if (typeof b.text !== "string" || b.text.trim() === "") {
    if (b.blocks === undefined) return { status: 400, body: "no_text" };
  } else if (b.text.length > 40_000) return { status: 400, body: "msg_too_long" };
  return { status: 200, body: "ok" };
}

export const startSlackReceiver = (): Promise<Receiver> => startReceiver((_path, body) => checkSlack(body));

/** Slack's rate-limit answer. */
export const slackRateLimited = (seconds: number): Answer => ({
  status: 429,
  body: "rate_limited",
  headers: { "retry-after": String(seconds) },
});
