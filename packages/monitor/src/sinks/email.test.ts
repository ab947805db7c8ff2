import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  decodeQuotedPrintable,
  type SmtpReceiver,
  startSmtpReceiver,
  TEST_CERT,
} from "../../../../test/helpers/receivers/smtp.js";
import { registryLookup } from "../messages/registry-lookup.js";
import { renderAlert } from "../messages/render.js";
import { emailSink } from "./email.js";

const FROM = "0x1111111111111111111111111111111111111111";
const view = renderAlert(
  {
    type: "alert",
    kind: "violation",
    id: "v1",
    blockNumber: 42,
    tokenSymbol: "USDC",
    amountRaw: "1500000",
    decimals: 6,
    from: FROM,
    to: "0x2222222222222222222222222222222222222222",
    txHash: `0x${"ab".repeat(32)}`,
  },
  { registry: registryLookup([{ address: FROM, role: "treasury", label: "Ops <wallet>" }]) },
);
const creds = { user: "monitor", pass: "s3cret" };

describe("email sink", () => {
  let rx: SmtpReceiver;
  beforeAll(async () => {
    rx = await startSmtpReceiver(creds);
  });
  afterAll(() => rx.close());

  const sink = (over: Partial<Parameters<typeof emailSink>[0]> = {}) =>
    emailSink({
      host: rx.host,
      port: rx.port,
      auth: creds,
      from: "kusd-monitor@example.org",
      to: ["oncall@example.org"],
      tls: { ca: TEST_CERT, servername: "localhost" },
      timeoutMs: 5000,
      ...over,
    });

  it("sends over STARTTLS with auth: subject = title, text and HTML bodies naming the label and amount", async () => {
    expect(await sink().deliver(view)).toEqual({ ok: true });
    const mail = rx.received.at(-1)!;
    expect(mail).toMatchObject({ secure: true, user: "monitor", to: ["oncall@example.org"] });
    const text = decodeQuotedPrintable(mail.raw);
    expect(text).toContain(`Subject: ${view.title}`);
    expect(text).toContain("Content-Type: text/plain");
    expect(text).toContain("Content-Type: text/html");
    expect(text).toContain('label "Ops <wallet>"');
    expect(text).toContain("label &quot;Ops &lt;wallet&gt;&quot;");
    expect(text).toContain("1.5 USDC");
    expect(text).toContain("X-Kusd-Delivery: alert:violation:v1");
  });

  it("keeps a transient 4xx and bad credentials retryable; a 5xx refusal is not", async () => {
    rx.refuseNext(1, 451, "try again later");
    expect(await sink().deliver(view)).toMatchObject({ ok: false, retryable: true });
    rx.refuseNext(1, 554, "message rejected");
    expect(await sink().deliver(view)).toMatchObject({ ok: false, retryable: false });
    expect(await sink({ auth: { user: "monitor", pass: "wrong" } }).deliver(view)).toMatchObject({
      ok: false,
      retryable: true,
      error: expect.stringContaining("535"),
    });
  });

  it("refuses a server certificate it does not trust", async () => {
    const res = await sink({ tls: { servername: "localhost" } }).deliver(view);
    expect(res).toMatchObject({ ok: false, retryable: true });
  });
});
