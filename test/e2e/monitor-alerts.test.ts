/**
 * The monitor's alert kinds beyond violations, against the running devnet: a backing-ratio
 * crossing made live by a large mint (its ratio equal to GET /api/stats' chain reads at that
 * block) and a MINTER_ROLE grant and revocation, each retracted when a reorg removes it; a stale
 * signed statement and an unreadable venue alerted once they have lasted their limit and resolved
 * when they end; a risk-status trigger switched out of its safe state and back, and once more
 * with a reorg undoing it.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MINTER_ROLE } from "@kusd/core";
import { and, eq } from "@ponder/client";
import { type Address, encodeFunctionData, getAddress, type Hex, maxUint256, parseUnits } from "viem";
import { afterAll, describe, expect, inject, it } from "vitest";
import { fiatTokenV2Abi, kusdAbi, kusdpsmAbi } from "../../abis/index.js";
import { devnetKey } from "../../devnet/keys.js";
import { type MonitorOptions, runMonitor } from "../../packages/monitor/src/index.js";
import { sendAs as sendAsOn } from "../helpers/impersonate.js";
import { stack } from "../helpers/stack.js";

const s = stack();
const d = s.deployment;
const dir = mkdtempSync(join(tmpdir(), "kusd-monitor-alerts-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const options = (name: string, over: Partial<MonitorOptions> = {}): MonitorOptions => ({
  apiUrl: s.indexerUrl,
  kinds: [],
  redemptionMinKusd: "0",
  confirmations: 0,
  reorgWindow: 64,
  pollMs: 200,
  statePath: join(dir, `${name}.json`),
  stdout: true,
  webhooks: [],
  secret: "",
  baseDelayMs: 10,
  fromBlock: "head",
  once: true,
  ...over,
});

/** One poll; the messages it printed. */
async function poll(o: MonitorOptions, now?: number) {
  const lines: string[] = [];
  expect(
    await runMonitor(o, { write: (l) => lines.push(l), ...(now !== undefined && { now: () => now * 1000 }) }),
  ).toBe(0);
  return lines.map((l) => JSON.parse(l)).filter((m) => m.type !== "warning");
}

const snapshot = () => s.client.request({ method: "evm_snapshot" as never }) as Promise<Hex>;

const sendAs = (from: Address, to: Address, data: Hex) => sendAsOn(s.client, from, to, data);

/** psmUSDC / outstanding from GET /api/stats: balanceOf and totalSupply read at the block. */
async function ratioAt(block: number) {
  const stats = (await (await fetch(`${s.indexerUrl}/api/stats?block=${block}`)).json()) as any;
  return stats.psmUSDC / stats.kusdOutstanding;
}

describe("monitor alert kinds", () => {
  it("backing ratio: alerts the block a mint pulled the ratio under the threshold, and retracts it after a reorg", async () => {
    const head = await s.caughtUp();
    const before = await ratioAt(head);
    expect(before).toBeGreaterThan(1.01); // a mint moves a ratio above 1 towards 1
    const threshold = (Math.floor(before * 1e4) / 1e4 - 0.002).toFixed(4);
    const o = options("ratio", { kinds: ["backing_ratio"], backingRatioBelow: threshold });
    expect(await poll(o)).toEqual([]); // starts at the head

    const id = await snapshot();
    const user = devnetKey("test:monitor-minter");
    const circle = s.wallet(d.accounts.circle!.privateKey);
    const wallet = s.wallet(user.privateKey);
    await s.client.request({
      method: "anvil_setBalance" as never,
      params: [user.address, "0x3635C9ADC5DEA00000"] as never,
    });
    const amount = parseUnits("200000", 6);
    await s.client.waitForTransactionReceipt({
      hash: await circle.writeContract({
        address: s.addr("usdc"),
        abi: fiatTokenV2Abi,
        functionName: "mint",
        args: [user.address, amount],
      }),
    });
    await s.client.waitForTransactionReceipt({
      hash: await wallet.writeContract({
        address: s.addr("usdc"),
        abi: fiatTokenV2Abi,
        functionName: "approve",
        args: [s.addr("psmMint"), maxUint256],
      }),
    });
    const minted = await s.client.waitForTransactionReceipt({
      hash: await wallet.writeContract({
        address: s.addr("psmMint"),
        abi: kusdpsmAbi,
        functionName: "swapStableForKUSD",
        args: [s.addr("usdc"), amount],
      }),
    });
    const block = Number(minted.blockNumber);
    await s.indexedThrough(block);

    const [alert] = await poll(o);
    expect(alert).toMatchObject({
      type: "alert",
      kind: "backing_ratio",
      direction: "below",
      blockNumber: block,
      threshold: Number(threshold),
    });
    expect(alert.ratio).toBeCloseTo(await ratioAt(block), 7);
    expect(alert.previousRatio).toBeCloseTo(await ratioAt(block - 1), 7);
    expect(alert.ratio).toBeLessThan(Number(threshold));

    await s.reorgTo(id);
    const [retraction] = await poll(o);
    expect(retraction).toMatchObject({ type: "retraction", kind: "backing_ratio", id: alert.id });
  });

  it("MINTER_ROLE: alerts a grant and a revocation on kUSD, and retracts both after a reorg", async () => {
    await s.caughtUp();
    const o = options("minter", { kinds: ["minter_role_change"] });
    expect(await poll(o)).toEqual([]);
    const id = await snapshot();
    const stranger = devnetKey("test:monitor-new-minter").address;
    // kUSD's admin at the head, as the indexed role events say.
    const admins = await s.db
      .select()
      .from(s.schema.roleHolder)
      .where(
        and(
          eq(s.schema.roleHolder.contractKey, "kUSD"),
          eq(s.schema.roleHolder.roleName, "DEFAULT_ADMIN_ROLE"),
          eq(s.schema.roleHolder.active, true),
        ),
      );
    expect(admins.length).toBeGreaterThan(0);
    const multisig = getAddress(admins[0]!.account);
    const grant = await sendAs(
      multisig,
      s.addr("kUSD"),
      encodeFunctionData({ abi: kusdAbi, functionName: "grantRole", args: [MINTER_ROLE, stranger] }),
    );
    const revoke = await sendAs(
      multisig,
      s.addr("kUSD"),
      encodeFunctionData({ abi: kusdAbi, functionName: "revokeRole", args: [MINTER_ROLE, stranger] }),
    );
    await s.indexedThrough(revoke.blockNumber);
    const alerts = await poll(o);
    expect(alerts.map((a) => [a.type, a.kind, a.granted, a.account, a.blockNumber, a.txHash])).toEqual([
      ["alert", "minter_role_change", true, stranger, Number(grant.blockNumber), grant.transactionHash],
      ["alert", "minter_role_change", false, stranger, Number(revoke.blockNumber), revoke.transactionHash],
    ]);
    await s.reorgTo(id);
    expect((await poll(o)).map((m) => [m.type, m.id]).sort()).toEqual(alerts.map((a) => ["retraction", a.id]).sort());
  });

  it("statement older than the limit: alerted once it is late, once, and resolved when it no longer is", async () => {
    const latest = (await (await fetch(`${s.indexerUrl}/api/por/signed`)).json()) as any;
    const signedAt = JSON.parse(latest.signed_payload_canonical).timestamp as number;
    const o = options("statement", { statementMaxAgeSeconds: 3600 });
    expect(await poll(o, signedAt + 3000)).toEqual([]);
    const [late] = await poll(o, signedAt + 3700);
    expect(late).toMatchObject({
      type: "alert",
      kind: "statement_stale",
      id: `statement:${latest.attestation_hash}`,
      ageSeconds: 3700,
      maxAgeSeconds: 3600,
    });
    expect(await poll(o, signedAt + 3800)).toEqual([]); // once
    // The clock goes back to when this statement was fresh: the condition has ended.
    const [resolved] = await poll(o, signedAt + 10);
    expect(resolved).toMatchObject({ type: "resolved", kind: "statement_stale", id: late.id });
  });

  it("venue unreadable: alerted after the limit, resolved when the venue answers again", async () => {
    const faults = (f: unknown[]) =>
      fetch(`${inject("venueProxyUrl")}/__proxy/faults`, { method: "POST", body: JSON.stringify(f) });
    const t = Math.floor(Date.now() / 1000);
    const o = options("venue", { venueUnreadableAfterSeconds: 60 });
    try {
      await faults([{ mode: "http500" }]);
      expect(await poll(o, t)).toEqual([]);
      const [alert] = await poll(o, t + 61);
      expect(alert).toMatchObject({ type: "alert", kind: "venue_unreadable", limitSeconds: 60 });
      expect(alert.reason).toMatch(/venue read failed/);
    } finally {
      await faults([]);
    }
    const [resolved] = await poll(o, t + 120);
    expect(resolved).toMatchObject({ type: "resolved", kind: "venue_unreadable" });
  });

  it("risk triggers: a switch leaving its safe state is alerted live, resolved when switched back, retracted when a reorg undoes it", async () => {
    await s.caughtUp();
    const o = options("risk", { riskTriggers: true });
    expect(await poll(o)).toEqual([]); // the standing state (the solvency gate off) is the baseline
    const admins = await s.db
      .select()
      .from(s.schema.roleHolder)
      .where(
        and(
          eq(s.schema.roleHolder.contractKey, "psmMint"),
          eq(s.schema.roleHolder.roleName, "DEFAULT_ADMIN_ROLE"),
          eq(s.schema.roleHolder.active, true),
        ),
      );
    const admin = getAddress(admins[0]!.account);
    const depegGate = (disabled: boolean) =>
      sendAs(
        admin,
        s.addr("psmMint"),
        encodeFunctionData({ abi: kusdpsmAbi, functionName: "setDepegCheckDisabled", args: [disabled] }),
      );

    const off = await depegGate(true);
    await s.indexedThrough(off.blockNumber);
    const [alert] = await poll(o);
    expect(alert).toMatchObject({
      type: "alert",
      kind: "trigger",
      trigger: { id: "psmMint.depegCheckDisabled", value: true, safe: false },
    });
    expect(alert.observedAtBlock).toBeGreaterThanOrEqual(Number(off.blockNumber));
    // Dated by bisection: the block of the setter's own transaction, from its receipt.
    expect(alert.changedAtBlock).toBe(Number(off.blockNumber));
    expect(
      await s.client.readContract({
        address: s.addr("psmMint"),
        abi: kusdpsmAbi,
        functionName: "depegCheckDisabled",
        blockNumber: BigInt(alert.observedAtBlock),
      }),
    ).toBe(true);
    const on = await depegGate(false);
    await s.indexedThrough(on.blockNumber);
    expect((await poll(o)).map((m) => [m.type, m.id])).toEqual([["resolved", alert.id]]);

    const id = await snapshot();
    const again = await depegGate(true);
    await s.indexedThrough(again.blockNumber);
    const [second] = await poll(o);
    expect(second).toMatchObject({ type: "alert", kind: "trigger", changedAtBlock: Number(again.blockNumber) });
    await s.reorgTo(id);
    expect((await poll(o)).map((m) => [m.type, m.id])).toEqual([["retraction", second.id]]);
  });
});
