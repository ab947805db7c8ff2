import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkDiscord, discordRateLimited, startDiscordReceiver } from "../../../../test/helpers/receivers/discord.js";
import type { Receiver } from "../../../../test/helpers/receivers/http-receiver.js";
import { discordPayload, discordSink } from "./discord.js";
import { sampleView } from "./sample-alert.test-support.js";

describe("discord sink", () => {
  let rx: Receiver;
  beforeAll(async () => {
    rx = await startDiscordReceiver();
  });
  afterAll(() => rx.close());

  it("posts content + one embed that Discord accepts (204), naming the label and amount", async () => {
    expect(await discordSink({ url: `${rx.url}/api/webhooks/1/t` }).deliver(sampleView)).toEqual({ ok: true });
    const body = rx.received.at(-1)!.body as ReturnType<typeof discordPayload>;
    expect(body.embeds[0]).toMatchObject({ color: 0xb00020, timestamp: "2026-05-14T00:00:00.000Z" });
    expect(body.embeds[0]!.description).toContain('label "Ops <wallet> & co"');
    expect(body.content).toContain("2.5 kUSD");
    expect(await discordSink({ url: `${rx.url}/api/webhooks/1/t?wait=true` }).deliver(sampleView)).toEqual({
      ok: true,
    });
  });

  it("takes the float retry_after from a 429 body; a 400 is a refusal", async () => {
    rx.failNext(1, discordRateLimited(1.337));
    expect(await discordSink({ url: rx.url }).deliver(sampleView)).toMatchObject({
      retryable: true,
      retryAfterMs: 1337,
    });
    rx.failNext(1, { status: 404, body: { code: 10015, message: "Unknown Webhook" } });
    expect(await discordSink({ url: rx.url }).deliver(sampleView)).toMatchObject({ ok: false, retryable: false });
  });

  it("stays within the 6000-character embed budget for huge messages", () => {
    const big = {
      ...sampleView,
      title: "t".repeat(400),
      lines: Array(100).fill("x".repeat(200)),
      proof: "p".repeat(3000),
    };
    expect(checkDiscord("/", discordPayload(big)).status).toBe(204);
  });
});
