/**
 * proveReads over what a real node answered (anvil, fixtures/execution-*.json): the staking
 * vault's share price, which no storage layout covers, executed in the local EVM over state proven
 * against the header. A slot the access list leaves out is fetched and proven; an eth_call answer
 * that differs from the execution, a tampered slot and a header that is not the block's are each
 * refused, named.
 */
import { getAddress, type Hex } from "viem";
import { describe, expect, it } from "vitest";
import { type ExecutionFixture, fixtureRpc, readsOf, tampered } from "./fixture-rpc.test-support.js";
import fixtureJson from "./fixtures/execution-skusd-convert-to-assets.json" with { type: "json" };
import { proveReads } from "./prove-reads.js";
import type { RecordedRead } from "./recorded-reads.js";

const fixture = fixtureJson as unknown as ExecutionFixture;
const reads = readsOf(fixture);
const vault = getAddress(fixture.reads[0]!.spec.to);
// The fixture keys accounts by the address as the node wrote it.
const at = vault.toLowerCase();
const slots = Object.keys(fixture.accounts[at]!.storageProof) as Hex[];

const prove = (rpc: ReturnType<typeof fixtureRpc>, recorded: RecordedRead[] = reads, hint = true) =>
  proveReads(recorded, {
    client: rpc.client,
    blockNumber: BigInt(fixture.header.number),
    chainId: 8453,
    anchor: { blockHash: fixture.header.hash, source: "the fixture" },
    accessListHint: hint,
  });

describe("proveReads", () => {
  it("executes the read over proven state and proves the answer eth_call gave", async () => {
    const report = await prove(fixtureRpc(fixture));
    expect(report.reads).toEqual([
      expect.objectContaining({
        status: "proven",
        detail: expect.stringMatching(/^executed over proven state \(\d+ accounts, 5 slots\)$/),
      }),
    ]);
    expect(report.ok).toBe(true);
  });

  it("fetches and proves a slot the access list leaves out, never reading it as zero", async () => {
    const rpc = fixtureRpc(fixture, { accessList: [{ address: vault, storageKeys: slots.slice(0, 1) }] });
    const report = await prove(rpc);
    expect(report.reads.map((r) => r.status)).toEqual(["proven"]);
    const asked = rpc.asked
      .filter((a) => a.method === "eth_getProof" && (a.params[0] as string).toLowerCase() === at)
      .flatMap((a) => a.params[1] as Hex[]);
    // The hinted slot first, then each one the execution reached, each proven.
    expect(new Set(asked.map((k) => BigInt(k)))).toEqual(new Set(slots.map((k) => BigInt(k))));
    expect(report.state?.slots).toBe(slots.length);
  });

  it("refuses an eth_call answer that differs from the execution, naming the read and both values", async () => {
    const answered = BigInt(fixture.reads[0]!.outcome.value) + 1n;
    const report = await prove(fixtureRpc(fixture), [
      { ...reads[0]!, outcome: { ok: true, value: answered } } as RecordedRead,
    ]);
    expect(report.reads).toEqual([
      expect.objectContaining({
        status: "failed",
        read: `convertToAssets(uint256)(uint256) [1000000000000000000] on ${at}`,
        detail: `eth_call answered "${answered}"; executed over proven state it returns "${answered - 1n}"`,
        account: vault,
      }),
    ]);
    expect(report.ok).toBe(false);
  });

  it("refuses a read whose eth_call reverted while proven state answers it", async () => {
    const report = await prove(fixtureRpc(fixture), [
      { ...reads[0]!, outcome: { ok: false, kind: "reverted", cause: "reverted" } } as RecordedRead,
    ]);
    expect(report.reads[0]).toMatchObject({
      status: "failed",
      detail: expect.stringMatching(/^eth_call answered reverted; executed over proven state it returns/),
    });
  });

  it("fails the read, naming the account and the slot, when a slot it reads was tampered with", async () => {
    const slot = slots[0]!;
    const a = fixture.accounts[at]!;
    const rpc = fixtureRpc({
      ...fixture,
      accounts: {
        ...fixture.accounts,
        [at]: { ...a, storageProof: { ...a.storageProof, [slot]: tampered(a.storageProof[slot]!) } },
      },
    });
    for (const hint of [true, false]) {
      const report = await prove(rpc, reads, hint);
      expect(report.reads).toEqual([
        expect.objectContaining({
          status: "failed",
          account: vault,
          slot: slot.toLowerCase(),
          detail: expect.stringMatching(/does not hash/),
        }),
      ]);
    }
  });

  it("proves a getter's probe and the code presence the RPC answered, and refuses another answer", async () => {
    const probe: RecordedRead = {
      kind: "probe",
      to: vault,
      getter: "convertToAssets(uint256)",
      args: [10n ** 18n],
      answer: "returned",
    };
    const code: RecordedRead = { kind: "code", account: vault, has: true };
    const report = await prove(fixtureRpc(fixture), [probe, code]);
    expect(report.reads.map((r) => r.status)).toEqual(["proven", "proven"]);
    const lies = await prove(fixtureRpc(fixture), [
      { ...probe, answer: "reverts" } as RecordedRead,
      { ...code, has: false } as RecordedRead,
    ]);
    expect(lies.reads).toEqual([
      expect.objectContaining({
        status: "failed",
        detail: "eth_call answered reverts; executed over proven state it returned",
      }),
      expect.objectContaining({ status: "failed", detail: "the RPC answered no code, the proven account has code" }),
    ]);
  });

  it("fails every read when the header the RPC gives is not the trusted block's", async () => {
    const rpc = fixtureRpc({ ...fixture, header: { ...fixture.header, stateRoot: fixture.header.parentHash } });
    const report = await prove(rpc);
    expect(report.header.ok).toBe(false);
    expect(report.reads).toEqual([
      expect.objectContaining({ status: "failed", detail: expect.stringMatching(/not that block's header/) }),
    ]);
  });
});
