import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Receiver } from "../../../../test/helpers/receivers/http-receiver.js";
import { checkSlack, slackRateLimited, startSlackReceiver } from "../../../../test/helpers/receivers/slack.js";
import { registryLookup } from "../messages/registry-lookup.js";
import { renderAlert } from "../messages/render.js";
import { slackPayload, slackSink } from "./slack.js";

const FROM = "0x1111111111111111111111111111111111111111";
const view = renderAlert(
  {
    type: "alert",
    kind: "violation",
    id: "v1",
    blockNumber: 42,
    tokenSymbol: "kUSD",
    amountRaw: "2500000000000000000",
    decimals: 18,
    from: FROM,
    to: "0x2222222222222222222222222222222222222222",
    txHash: `0x${"ab".repeat(32)}`,
  },
  { registry: registryLookup([{ address: FROM, role: "treasury", label: "Ops <wallet>" }]) },
);

describe("slack sink", () => {
  let rx: Receiver;
  beforeAll(async () => {
    rx = await startSlackReceiver();
  });
  afterAll(() => rx.close());

  it("posts text + blocks that Slack accepts, naming the label (mrkdwn-escaped) and amount", async () => {
    const sink = slackSink({ url: `${rx.url}/services/T/B/X` });
    expect(await sink.deliver(view)).toEqual({ ok: true });
    const body = rx.received.at(-1)!.body as ReturnType<typeof slackPayload>;
    expect(body.text).toContain("2.5 kUSD");
    expect(JSON.stringify(body.blocks)).toContain("Ops &lt;wallet&gt;");
    expect(body.text).toContain("Ops &lt;wallet&gt;");
    expect(body.blocks[0]).toMatchObject({ type: "header", text: { type: "plain_text" } });
  });

  it("retries a 429 after Retry-After, and refuses a 4xx without retry", async () => {
    const sink = slackSink({ url: rx.url });
    rx.failNext(1, slackRateLimited(7));
    expect(await sink.deliver(view)).toMatchObject({ ok: false, retryable: true, retryAfterMs: 7000 });
    rx.failNext(1, { status: 410, body: "channel_is_archived" });
    expect(await sink.deliver(view)).toMatchObject({
      ok: false,
      retryable: false,
      error: expect.stringContaining("archived"),
    });
    rx.failNext(1, { status: 500, body: "oops" });
    expect(await sink.deliver(view)).toMatchObject({ ok: false, retryable: true });
  });

  it("keeps within Slack's limits for huge messages", () => {
    const big = { ...view, title: "t".repeat(500), lines: ["x".repeat(50_000)] };
    expect(checkSlack(slackPayload(big))).toEqual({ status: 200, body: "ok" });
  });

  it("reports an unreachable destination as retryable", async () => {
    const sink = slackSink({ url: "http://127.0.0.1:1/", timeoutMs: 2000 });
    expect(await sink.deliver(view)).toMatchObject({ ok: false, retryable: true });
  });
});
