import { describe, expect, it } from "vitest";
import { type ConditionState, observeStatement, observeVenue, stepCondition } from "./conditions.js";

const NOW = 1_800_000_000;
const statement = (signedAt: number) => ({
  attestation_hash: `0x${"ab".repeat(32)}`,
  signed_payload_canonical: JSON.stringify({ timestamp: signedAt }),
});

describe("stepCondition", () => {
  it("alerts once the condition has lasted its limit, once, and resolves when it ends", () => {
    const seen = { bad: true as const, id: "venue:1", since: NOW - 10, detail: {} };
    const early = stepCondition(undefined, seen, NOW, 60);
    expect(early.send).toBeNull();
    const due = stepCondition(early.next, seen, NOW + 50, 60);
    expect(due).toMatchObject({ send: "alert", next: { alerted: true, since: NOW - 10 } });
    expect(stepCondition(due.next, seen, NOW + 500, 60).send).toBeNull();
    expect(stepCondition(due.next, { bad: false }, NOW + 600, 60)).toEqual({ next: undefined, send: "resolved" });
  });

  it("a condition that ends before its limit is never alerted nor resolved", () => {
    const first = stepCondition(undefined, { bad: true, id: "x", since: NOW, detail: {} }, NOW, 60);
    expect(stepCondition(first.next, { bad: false }, NOW + 30, 60)).toEqual({ next: undefined, send: null });
  });
});

describe("observeStatement", () => {
  it("stale from the moment its age passes the limit: due at once when already past it", () => {
    expect(observeStatement(statement(NOW - 100), NOW, undefined, 3600)).toEqual({ bad: false });
    const seen = observeStatement(statement(NOW - 7200), NOW, undefined, 3600);
    expect(seen).toMatchObject({ bad: true, since: NOW - 7200, detail: { ageSeconds: 7200 } });
    expect(stepCondition(undefined, seen, NOW, 3600).send).toBe("alert");
  });

  it("no statement published counts from when it was first seen missing", () => {
    const seen = observeStatement(null, NOW, undefined, 3600);
    expect(stepCondition(undefined, seen, NOW, 3600).send).toBeNull();
    const prev: ConditionState = { id: "no-statement", since: NOW, alerted: false, detail: {} };
    expect(stepCondition(prev, observeStatement(null, NOW + 3600, prev, 3600), NOW + 3600, 3600).send).toBe("alert");
  });
});

describe("observeVenue", () => {
  it("read now is fine, none configured is nothing to watch; a failed read is bad since it was first seen", () => {
    expect(observeVenue({ ok: true, detail: "answered clearinghouseState" }, NOW, undefined)).toEqual({ bad: false });
    expect(observeVenue({ ok: null, detail: "no venue configured" }, NOW, undefined)).toEqual({ bad: false });
    const prev: ConditionState = { id: "venue:5", since: 5, alerted: false, detail: {} };
    expect(observeVenue({ ok: false, detail: "timeout" }, NOW, prev)).toMatchObject({
      bad: true,
      since: 5,
      id: "venue:5",
      detail: { reason: "venue read failed: timeout" },
    });
  });
});
