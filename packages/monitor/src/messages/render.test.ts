import { describe, expect, it } from "vitest";
import type { MonitorMessage } from "../deliver.js";
import { describeAddress, registryLookup } from "./registry-lookup.js";
import { alertKey, renderAlert } from "./render.js";
import { applyTemplate } from "./template.js";

const FROM = "0x1111111111111111111111111111111111111111";
const TO = "0x2222222222222222222222222222222222222222";
const TX = `0x${"ab".repeat(32)}`;
const registry = registryLookup([
  { address: FROM.toUpperCase().replace("0X", "0x"), role: "treasury", label: "Ops wallet" },
]);
const violation: MonitorMessage = {
  type: "alert",
  kind: "violation",
  id: "v1",
  blockNumber: 42,
  token: "0x3333333333333333333333333333333333333333",
  tokenSymbol: "USDC",
  amount: 1234.5,
  amountRaw: "1234500001",
  decimals: 6,
  from: FROM,
  to: TO,
  txHash: TX,
  timestamp: "2026-05-14T00:00:00.000Z",
  registryVersion: 3,
};

describe("renderAlert", () => {
  it("names the registry role and label, the exact amount, block, time and the proving command", () => {
    const v = renderAlert(violation, { registry, apiUrl: "http://api" });
    expect(v.severity).toBe("critical");
    expect(v.title).toBe("Registry violation: 1234.500001 USDC left a listed account");
    expect(v.lines).toContain(`From: ${FROM} (role: treasury, label "Ops wallet")`);
    expect(v.lines).toContain(`To: ${TO} (not in the registry)`);
    expect(v.lines).toContain("Block 42 at 2026-05-14T00:00:00.000Z");
    expect(v.proof).toBe(`cast receipt ${TX} --rpc-url $BASE_RPC_URL`);
    expect(v.deliveryId).toBe("alert:violation:v1");
  });

  it("renders a retraction from the retracted item, at info, with the same alert key", () => {
    const { type: _t, kind: _k, id: _i, blockNumber: _b, ...item } = violation;
    const r: MonitorMessage = {
      type: "retraction",
      kind: "violation",
      id: "v1",
      blockNumber: 42,
      reason: "reorg",
      retracted: item,
    };
    const v = renderAlert(r, { registry });
    expect(v.severity).toBe("info");
    expect(v.title).toMatch(/^Retracted: Registry violation: 1234.500001 USDC/);
    expect(v.lines.join("\n")).toContain("Ops wallet");
    expect(alertKey(r)).toBe(alertKey(violation));
    expect(v.deliveryId).not.toBe(renderAlert(violation, { registry }).deliveryId);
  });

  it("gives each kind its severity", () => {
    const sev = (m: Partial<MonitorMessage>) =>
      renderAlert({ type: "alert", id: "x", blockNumber: 1, kind: "?", ...m }, { registry }).severity;
    expect(sev({ kind: "psm_pause", psm: FROM, psmKey: "psm" })).toBe("error");
    expect(sev({ kind: "minter_grant", account: TO, sender: FROM, contractKey: "kusd", contract: TO })).toBe("error");
    expect(sev({ kind: "redemption", redeemer: TO, kusdRedeemed: 5e6, usdcPaidOut: 5e6, feeBps: 0 })).toBe("warning");
    expect(sev({ kind: "backing_ratio", direction: "below", ratio: 0.9, threshold: 1 })).toBe("warning");
    expect(sev({ kind: "statement_stale", since: "2026-01-01T00:00:00Z", limitSeconds: 60 })).toBe("error");
    expect(
      renderAlert({ type: "resolved", kind: "venue_unreadable", id: "x", blockNumber: 9 }, { registry }).severity,
    ).toBe("info");
  });

  it("renders a retracted risk trigger from its bare detail", () => {
    const r: MonitorMessage = {
      type: "retraction",
      kind: "trigger",
      id: "t7@9",
      blockNumber: 9,
      retracted: { id: "t7", state: "tripped" },
    };
    const v = renderAlert(r, { registry });
    expect(v.title).toBe("Retracted: Risk trigger out of its safe state: t7");
    expect(v.lines.join("\n")).toContain('"state":"tripped"');
  });

  it("applies an operator's template per kind", () => {
    const v = renderAlert(violation, {
      registry,
      templates: { violation: { title: "{{tokenSymbol}} leak at {{ blockNumber }}", lines: ["to {{to}}{{nope}}"] } },
    });
    expect(v.title).toBe("USDC leak at 42");
    expect(v.lines).toEqual([`to ${TO}`]);
  });
});

describe("helpers", () => {
  it("keeps alert keys within PagerDuty's 255 characters", () => {
    const long = { ...violation, id: "x".repeat(300) };
    expect(alertKey(long)).toMatch(/^violation:sha256:[0-9a-f]{64}$/);
    expect(alertKey(violation)).toBe("violation:v1");
  });
  it("looks addresses up case-insensitively", () => {
    expect(describeAddress(registry, FROM.toUpperCase().replace("0X", "0x"))).toContain("treasury");
  });
  it("templates reach nested fields", () => {
    expect(applyTemplate("{{a.b}}/{{a}}", { a: { b: 1 } })).toBe('1/{"b":1}');
  });
});
