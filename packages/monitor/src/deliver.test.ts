import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { DELIVERY_HEADER, type MonitorMessage, postWebhook, standardWebhookHeaders, verifyWebhook } from "./deliver.js";

const message: MonitorMessage = { type: "alert", kind: "violation", id: "0xabc:1", blockNumber: 42, amount: "1000" };

/** A receiver that keeps what it was sent. */
async function receiver() {
  const got: Array<{ headers: Record<string, string>; body: string }> = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      got.push({ headers: req.headers as Record<string, string>, body });
      res.end("ok");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    got,
    close: () => new Promise((r) => server.close(r)),
  };
}

describe("webhook delivery", () => {
  it("is verified by the Standard Webhooks reference library (webhook-id, webhook-timestamp, webhook-signature v1)", async () => {
    const secret = `whsec_${Buffer.from("a shared secret of 32 bytes ....").toString("base64")}`;
    const r = await receiver();
    try {
      await postWebhook({ url: r.url, secret, maxAttempts: 1, baseDelayMs: 0 }, message);
      const [{ headers, body }] = r.got as [{ headers: Record<string, string>; body: string }];
      expect(new Webhook(secret).verify(body, headers)).toEqual(message);
      expect(headers["webhook-id"]).toBe(headers[DELIVERY_HEADER]);
      // Our own header stays valid beside it, and a tampered body fails both.
      expect(
        verifyWebhook(secret, { signature: headers["x-kusd-signature"], timestamp: headers["x-kusd-timestamp"] }, body),
      ).toBe(true);
      expect(() => new Webhook(secret).verify(body.replace("1000", "9000"), headers)).toThrow();
    } finally {
      await r.close();
    }
  });

  it("signs id, timestamp and body, so none can be swapped", () => {
    const secret = `whsec_${Buffer.from("k").toString("base64")}`;
    const a = standardWebhookHeaders(secret, "alert:violation:1", 1_700_000_000, "{}");
    expect(standardWebhookHeaders(secret, "alert:violation:2", 1_700_000_000, "{}")["webhook-signature"]).not.toBe(
      a["webhook-signature"],
    );
    expect(standardWebhookHeaders(secret, "alert:violation:1", 1_700_000_001, "{}")["webhook-signature"]).not.toBe(
      a["webhook-signature"],
    );
    expect(a["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
  });
});
