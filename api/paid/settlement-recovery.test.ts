import { describe, expect, it } from "vitest";
import type { PaymentAuthorization, PaymentKey, PaymentRepository } from "../store/operator-store.js";
import { recoverReservation, type SettlementProbe, startRecoverySweep } from "./settlement-recovery.js";

const TX = `0x${"ab".repeat(32)}`;
const row = (over: Partial<PaymentAuthorization> = {}): PaymentAuthorization => ({
  network: "eip155:8453",
  payer: "0x00000000000000000000000000000000000000aa",
  nonce: `0x${"01".repeat(32)}`,
  status: "reserved",
  resource: "GET /paid/reserves",
  settlementTx: null,
  reservedBlock: 10n,
  delivered: true,
  createdAt: new Date(0),
  updatedAt: new Date(0),
  ...over,
});

/** An in-memory repository that records what recovery did to it. */
function memory(rows: PaymentAuthorization[]) {
  const calls: string[] = [];
  const find = (k: PaymentKey) =>
    rows.find((r) => r.nonce === k.nonce && r.payer === k.payer && r.network === k.network);
  const repo = {
    release: async (k: PaymentKey) => {
      calls.push(`release ${k.nonce.slice(0, 6)}`);
      const r = find(k);
      if (r?.status !== "reserved") return false;
      rows.splice(rows.indexOf(r), 1);
      return true;
    },
    markSettled: async (k: PaymentKey, tx: string, o: { delivered?: boolean } = {}) => {
      calls.push(`settled ${k.nonce.slice(0, 6)} ${tx.slice(0, 6)} delivered=${o.delivered ?? true}`);
      Object.assign(find(k)!, { status: "settled", settlementTx: tx, delivered: o.delivered ?? true });
    },
    staleReservations: async (before: Date) => rows.filter((r) => r.status === "reserved" && r.updatedAt < before),
  } as unknown as PaymentRepository;
  return { repo, calls, rows };
}

describe("recoverReservation", () => {
  it("records a settlement the chain shows, as not delivered", async () => {
    const m = memory([row()]);
    const probe: SettlementProbe = async () => ({ used: true, tx: TX as `0x${string}` });
    expect(await recoverReservation(m.repo, m.rows[0]!, probe)).toBe("settled");
    expect(m.calls).toEqual(["settled 0x0101 0xabab delivered=false"]);
  });

  it("releases a reservation whose authorization the chain has not used, so the payer can retry it", async () => {
    const m = memory([row()]);
    expect(await recoverReservation(m.repo, m.rows[0]!, async () => ({ used: false }))).toBe("released");
    expect(m.rows).toEqual([]);
  });

  it("leaves the row alone when the chain cannot be read or the settling tx cannot be found", async () => {
    const m = memory([row()]);
    expect(await recoverReservation(m.repo, m.rows[0]!, async () => Promise.reject(new Error("rpc down")))).toBe(
      "unknown",
    );
    expect(await recoverReservation(m.repo, m.rows[0]!, async () => ({ used: true, tx: null }))).toBe("unknown");
    expect(m.calls).toEqual([]);
    expect(m.rows[0]!.status).toBe("reserved");
  });
});

describe("startRecoverySweep", () => {
  it("recovers only reservations older than the lease, on its own network", async () => {
    const now = Date.now();
    const m = memory([
      row({ nonce: `0x${"02".repeat(32)}`, updatedAt: new Date(now - 120_000) }),
      row({ nonce: `0x${"03".repeat(32)}`, updatedAt: new Date(now - 120_000) }),
      row({ nonce: `0x${"04".repeat(32)}`, updatedAt: new Date(now) }), // in flight
      row({ nonce: `0x${"05".repeat(32)}`, updatedAt: new Date(now - 120_000), network: "eip155:84532" }),
    ]);
    const probe: SettlementProbe = async (r) =>
      r.nonce.startsWith("0x02") ? { used: true, tx: TX as `0x${string}` } : { used: false };
    const sweep = startRecoverySweep({
      payments: Promise.resolve(m.repo),
      probe,
      network: "eip155:8453",
      leaseSeconds: 60,
      onError: () => {},
    });
    try {
      const counts = await sweep.runOnce();
      expect(counts).toEqual({ settled: 1, released: 1, unknown: 0 });
      expect(m.rows.map((r) => [r.nonce.slice(0, 4), r.status, r.delivered])).toEqual([
        ["0x02", "settled", false],
        ["0x04", "reserved", true],
        ["0x05", "reserved", true],
      ]);
    } finally {
      sweep.stop();
    }
  });
});
