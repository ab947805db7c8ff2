/**
 * Discord webhook (discord.com/developers/docs/resources/webhook#execute-webhook): `content` is
 * the notification line, one embed carries the facts (title, description, colour by severity,
 * fields, ISO timestamp). 204 (200 with ?wait=true) is success; 429 carries `retry_after` in
 * seconds (a float) in the body, which is more precise than the Retry-After header.
 */
import { httpResult, postJson } from "./http.js";
import type { AlertView, Sink } from "./sink.js";

export type DiscordOptions = { id?: string; url: string; timeoutMs?: number };

const COLOR = { critical: 0xb00020, error: 0xd9480f, warning: 0xf5a623, info: 0x2b8a3e };
const cut = (s: string, n: number) => (s.length <= n ? s : `${s.slice(0, n - 1)}…`);

/** Within Discord's limits: content 2000, title 256, description 4096, field value 1024, 6000 in all. */
export function discordPayload(v: AlertView) {
  const m = v.message as Record<string, unknown>;
  const fields = [
    { name: "Severity", value: v.severity, inline: true },
    { name: "Block", value: String(v.message.blockNumber), inline: true },
    ...(v.proof ? [{ name: "Proof", value: cut(`\`${v.proof}\``, 1024), inline: false }] : []),
  ];
  const title = cut(v.title, 256);
  const budget = 6000 - title.length - fields.reduce((n, f) => n + f.name.length + f.value.length, 0) - 100;
  return {
    content: cut(`[${v.severity}] ${v.title}`, 2000),
    // Pinging everyone is the operator's choice in Discord, not ours.
    allowed_mentions: { parse: [] },
    embeds: [
      {
        title,
        description: cut(v.lines.join("\n"), Math.min(4096, budget)),
        color: COLOR[v.severity],
        fields,
        timestamp: typeof m.timestamp === "string" ? m.timestamp : undefined,
        footer: { text: cut(`delivery ${v.deliveryId}`, 2048) },
      },
    ],
  };
}

export function discordSink(o: DiscordOptions): Sink {
  return {
    id: o.id ?? "discord",
    type: "discord",
    async deliver(view, signal) {
      const a = await postJson(o.url, discordPayload(view), signal, o.timeoutMs);
      let seconds: unknown;
      if (!("error" in a) && a.status === 429) {
        try {
          seconds = (JSON.parse(a.text) as { retry_after?: unknown }).retry_after;
        } catch {}
      }
      return httpResult(a, "discord", seconds);
    },
  };
}
