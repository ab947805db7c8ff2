import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Receiver } from "../../../../test/helpers/receivers/http-receiver.js";
import {
  checkTelegram,
  startTelegramReceiver,
  telegramRateLimited,
} from "../../../../test/helpers/receivers/telegram.js";
import { sampleView } from "./sample-alert.test-support.js";
import { telegramSink, telegramText } from "./telegram.js";

const TOKEN = "123456:ABC-test-token";

describe("telegram sink", () => {
  let rx: Receiver;
  beforeAll(async () => {
    rx = await startTelegramReceiver(TOKEN);
  });
  afterAll(() => rx.close());
  const sink = () => telegramSink({ apiBase: rx.url, token: TOKEN, chatId: -100123 });

  it("sends HTML Telegram parses, with the label escaped and the amount", async () => {
    expect(await sink().deliver(sampleView)).toEqual({ ok: true });
    const body = rx.received.at(-1)!.body as { chat_id: number; text: string; parse_mode: string };
    expect(body).toMatchObject({ chat_id: -100123, parse_mode: "HTML" });
    expect(body.text).toContain("Ops &lt;wallet&gt; &amp; co");
    expect(body.text).toContain("2.5 kUSD");
  });

  it("honours parameters.retry_after on 429, refuses a 400, and never leaks the token in errors", async () => {
    rx.failNext(1, telegramRateLimited(3));
    expect(await sink().deliver(sampleView)).toMatchObject({ retryable: true, retryAfterMs: 3000 });
    const wrong = telegramSink({ apiBase: rx.url, token: "999:other", chatId: 1 });
    const r = await wrong.deliver(sampleView);
    expect(r).toMatchObject({ ok: false, retryable: false });
    expect(JSON.stringify(r)).not.toContain("999:other");
  });

  it("keeps long messages under 4096 characters", () => {
    const big = { ...sampleView, lines: Array(100).fill("<x> & ".repeat(20)) };
    expect(
      checkTelegram(`/bot${TOKEN}/sendMessage`, { chat_id: 1, text: telegramText(big), parse_mode: "HTML" }, TOKEN)
        .status,
    ).toBe(200);
  });
});
