/**
 * The Telegram Bot API's sendMessage as Telegram checks it: the token in the path, chat_id and a
 * non-empty text ≤ 4096, and with parse_mode HTML only Telegram's tags and escaped &<> (a stray
 * `<` is "can't parse entities"). Answers {ok:true,result} or {ok:false,error_code,description}.
 */
import { type Answer, type Receiver, startReceiver } from "./http-receiver.js";

const TAGS = /<\/?(b|strong|i|em|u|ins|s|strike|del|code|pre|a|tg-spoiler|span|blockquote)(\s[^>]*)?>/g;

const fail = (code: number, description: string, extra: object = {}): Answer => ({
  status: code,
  body: { ok: false, error_code: code, description, ...extra },
});

export function checkTelegram(path: string, body: unknown, token: string): Answer {
  if (path !== `/bot${token}/sendMessage`) return fail(404, "Not Found");
  const b = (body ?? {}) as { chat_id?: unknown; text?: unknown; parse_mode?: unknown };
  if (b.chat_id === undefined || b.chat_id === "") return fail(400, "Bad Request: chat_id is empty");
  if (typeof b.text !== "string" || b.text === "") return fail(400, "Bad Request: message text is empty");
  let text = b.text;
  if (b.parse_mode === "HTML") {
    const stripped = text.replace(TAGS, "");
    if (/[<>]/.test(stripped) || /&(?!(amp|lt|gt|quot|#\d+);)/.test(stripped))
      return fail(400, "Bad Request: can't parse entities: unsupported start tag or unescaped character");
    text = stripped
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, "&");
  }
  if (text.length > 4096) return fail(400, "Bad Request: message is too long");
  return { status: 200, body: { ok: true, result: { message_id: 1, chat: { id: b.chat_id }, date: 0, text } } };
}

export const startTelegramReceiver = (token: string): Promise<Receiver> =>
  startReceiver((path, body) => checkTelegram(path, body, token));

export const telegramRateLimited = (seconds: number): Answer =>
  fail(429, `Too Many Requests: retry after ${seconds}`, { parameters: { retry_after: seconds } });
