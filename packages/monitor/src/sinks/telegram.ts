/**
 * Telegram Bot API sendMessage (core.telegram.org/bots/api#sendmessage) with parse_mode HTML,
 * so only &, < and > need escaping. Telegram answers {ok:true,result} or {ok:false,error_code,
 * description, parameters:{retry_after}}; 429 carries retry_after, 400/403 (chat not found,
 * bot blocked) refuse.
 */
import { httpResult, postJson } from "./http.js";
import type { AlertView, Sink } from "./sink.js";

export const TELEGRAM_API = "https://api.telegram.org";

export type TelegramOptions = {
  id?: string;
  apiBase?: string;
  token: string;
  chatId: string | number;
  timeoutMs?: number;
};

export const escTelegramHtml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** Telegram's limit is 4096 characters of text after entity parsing; cut the lines, keep the tags. */
export function telegramText(v: AlertView): string {
  const head = `<b>${escTelegramHtml(v.title)}</b>\n<i>${v.severity}</i>\n\n`;
  const proof = v.proof ? `\n\n<code>${escTelegramHtml(v.proof)}</code>` : "";
  let body = v.lines.join("\n");
  const room = 4000 - v.title.length - (v.proof?.length ?? 0) - 20;
  if (body.length > room) body = `${body.slice(0, Math.max(0, room - 1))}…`;
  return head + escTelegramHtml(body) + proof;
}

export function telegramSink(o: TelegramOptions): Sink {
  const url = `${o.apiBase ?? TELEGRAM_API}/bot${o.token}/sendMessage`;
  return {
    id: o.id ?? "telegram",
    type: "telegram",
    async deliver(view, signal) {
      const body = { chat_id: o.chatId, text: telegramText(view), parse_mode: "HTML", disable_web_page_preview: true };
      const a = await postJson(url, body, signal, o.timeoutMs);
      let seconds: unknown;
      if (!("error" in a) && a.status === 429) {
        try {
          seconds = (JSON.parse(a.text) as { parameters?: { retry_after?: unknown } }).parameters?.retry_after;
        } catch {}
      }
      const r = httpResult(a, "telegram", seconds);
      // The token is in the URL; errors must never carry it into logs.
      return r.ok ? r : { ...r, error: r.error.replaceAll(o.token, "<token>") };
    },
  };
}
