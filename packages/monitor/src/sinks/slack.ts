/**
 * Slack incoming webhook (api.slack.com/messaging/webhooks): `text` is the notification and
 * fallback, `blocks` what the channel shows (a header and mrkdwn sections). Slack answers 200
 * "ok"; 400 invalid_payload / no_text, 404 no_service, 410 channel_is_archived are refusals.
 */
import { httpResult, postJson } from "./http.js";
import type { AlertView, Sink } from "./sink.js";

export type SlackOptions = { id?: string; url: string; timeoutMs?: number };

/** Slack's limits: header text 150 chars, section text 3000, message text 40,000, 50 blocks. */
const cut = (s: string, n: number) => (s.length <= n ? s : `${s.slice(0, n - 1)}…`);
// Slack's mrkdwn needs only these three escaped.
const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

const EMOJI = { critical: ":rotating_light:", error: ":red_circle:", warning: ":warning:", info: ":white_check_mark:" };

export function slackPayload(v: AlertView) {
  // `text` is mrkdwn too (the notification and the fallback): escaped like the blocks.
  const text = cut(`${EMOJI[v.severity]} [${v.severity}] ${esc(v.title)}\n${v.lines.map(esc).join("\n")}`, 40_000);
  const blocks: unknown[] = [
    { type: "header", text: { type: "plain_text", text: cut(v.title, 150), emoji: true } },
    { type: "section", text: { type: "mrkdwn", text: cut(v.lines.map(esc).join("\n"), 3000) } },
  ];
  if (v.proof)
    blocks.push({ type: "section", text: { type: "mrkdwn", text: cut(`*Proof:* \`${esc(v.proof)}\``, 3000) } });
  blocks.push({
    type: "context",
    elements: [{ type: "mrkdwn", text: `${EMOJI[v.severity]} *${v.severity}* · delivery \`${v.deliveryId}\`` }],
  });
  return { text, blocks };
}

export function slackSink(o: SlackOptions): Sink {
  return {
    id: o.id ?? "slack",
    type: "slack",
    async deliver(view, signal) {
      const a = await postJson(o.url, slackPayload(view), signal, o.timeoutMs);
      return httpResult(a, "slack");
    },
  };
}
