import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Receiver } from "../../../../test/helpers/receivers/http-receiver.js";
import {
  checkPagerDuty,
  pagerDutyRateLimited,
  startPagerDutyReceiver,
} from "../../../../test/helpers/receivers/pagerduty.js";
import type { MonitorMessage } from "../deliver.js";
import { registryLookup } from "../messages/registry-lookup.js";
import { renderAlert } from "../messages/render.js";
import { pagerDutyEvent, pagerDutySink } from "./pagerduty.js";

const KEY = "R0UTINGKEY0000000000000000000000";
const registry = registryLookup([]);
const alert: MonitorMessage = {
  type: "alert",
  kind: "psm_pause",
  id: "p1",
  blockNumber: 7,
  psm: "0x1111111111111111111111111111111111111111",
  psmKey: "usdc-psm",
  account: "0x2222222222222222222222222222222222222222",
  txHash: `0x${"cd".repeat(32)}`,
  timestamp: "2026-05-14T00:00:00.000Z",
};
const retraction: MonitorMessage = {
  type: "retraction",
  kind: "psm_pause",
  id: "p1",
  blockNumber: 7,
  reason: "reorg",
  retracted: alert,
};

describe("pagerduty sink", () => {
  let rx: Receiver;
  beforeAll(async () => {
    rx = await startPagerDutyReceiver();
  });
  afterAll(() => rx.close());

  it("triggers with a dedup_key, and resolves the same key on retraction", async () => {
    const sink = pagerDutySink({ url: `${rx.url}/v2/enqueue`, routingKey: KEY });
    expect(await sink.deliver(renderAlert(alert, { registry }))).toEqual({ ok: true });
    expect(await sink.deliver(renderAlert(retraction, { registry }))).toEqual({ ok: true });
    const [t, r] = rx.received.slice(-2).map((x) => x.body as Record<string, unknown>);
    expect(t).toMatchObject({ event_action: "trigger", dedup_key: "psm_pause:p1", payload: { severity: "error" } });
    expect(r).toEqual({ routing_key: KEY, event_action: "resolve", dedup_key: "psm_pause:p1" });
  });

  it("refuses an invalid event without retry, retries 429", async () => {
    const bad = pagerDutySink({ url: rx.url, routingKey: "short" });
    const res = await bad.deliver(renderAlert(alert, { registry }));
    expect(res).toMatchObject({ ok: false, retryable: false, error: expect.stringContaining("routing_key") });
    rx.failNext(1, pagerDutyRateLimited);
    expect(
      await pagerDutySink({ url: rx.url, routingKey: KEY }).deliver(renderAlert(alert, { registry })),
    ).toMatchObject({
      ok: false,
      retryable: true,
    });
  });

  it("cuts the summary to PagerDuty's 1024 characters", () => {
    const v = { ...renderAlert(alert, { registry }), title: "x".repeat(2000) };
    expect(checkPagerDuty(pagerDutyEvent(v, { routingKey: KEY })).status).toBe(202);
  });
});
