/**
 * ProvenState over what a real node answered (anvil, fixtures/execution-*.json): accounts, slots
 * and code prove; an account, a slot or code that was tampered with, or that the node leaves out,
 * is refused, named, and never read as zero.
 */
import { getAddress, type Hex } from "viem";
import { describe, expect, it } from "vitest";
import { type ExecutionFixture, fixtureRpc, tampered } from "./fixture-rpc.test-support.js";
import fixtureJson from "./fixtures/execution-skusd-convert-to-assets.json" with { type: "json" };
import { ProofError } from "./merkle-proof.js";
import { ProvenState } from "./proven-state.js";

const fixture = fixtureJson as unknown as ExecutionFixture;
const vault = getAddress(fixture.reads[0]!.spec.to);
// The fixture keys accounts by the address as the node wrote it.
const at = vault.toLowerCase();
const slots = Object.keys(fixture.accounts[at]!.storageProof) as Hex[];
const stateOf = (rpc: ReturnType<typeof fixtureRpc>) =>
  new ProvenState(rpc.client, fixture.header.stateRoot, BigInt(fixture.header.number));

/** The fixture with the vault's account, or one of its slots, answered otherwise. */
function lying(change: (a: ExecutionFixture["accounts"][string]) => ExecutionFixture["accounts"][string]) {
  const accounts = { ...fixture.accounts, [at]: change(fixture.accounts[at]!) };
  return fixtureRpc({ ...fixture, accounts });
}

describe("ProvenState", () => {
  it("proves the account, every slot and the code the node gave, asking one eth_getProof for what one turn asks", async () => {
    const rpc = fixtureRpc(fixture);
    const state = stateOf(rpc);
    const [account, ...values] = await Promise.all([state.account(vault), ...slots.map((s) => state.slot(vault, s))]);
    expect(account.exists).toBe(true);
    expect(values.some((v) => v !== 0n)).toBe(true);
    expect(await state.code(vault)).toBe(fixture.code[at]);
    expect(rpc.asked.filter((a) => a.method === "eth_getProof")).toHaveLength(1);
    expect(state.counts).toMatchObject({ accounts: 1, slots: slots.length, code: 1, proofCalls: 1 });
  });

  it("refuses an account whose proof does not hash to the state root, and every slot of it", async () => {
    const state = stateOf(lying((a) => ({ ...a, accountProof: a.accountProof.slice(1) })));
    await expect(state.account(vault)).rejects.toMatchObject({ name: "ProofError", account: vault, slot: null });
    await expect(state.slot(vault, slots[0]!)).rejects.toMatchObject({ account: vault, slot: slots[0] });
  });

  it("refuses a slot whose proof was tampered with, naming the account and the slot: never zero", async () => {
    const slot = slots[0]!;
    const state = stateOf(
      lying((a) => ({ ...a, storageProof: { ...a.storageProof, [slot]: tampered(a.storageProof[slot]!) } })),
    );
    const refused = await state.slot(vault, slot).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ProofError);
    expect(refused).toMatchObject({ account: vault, slot: slot.toLowerCase() });
    expect((refused as Error).message).toMatch(/does not hash to the account's storage root/);
  });

  it("refuses a slot the node gives no proof of", async () => {
    const state = stateOf(lying((a) => ({ ...a, storageProof: {} })));
    await expect(state.slot(vault, slots[0]!)).rejects.toThrow(/gave no proof of slot/);
  });

  it("refuses code that does not hash to the proven code hash", async () => {
    const code = fixture.code[at]!;
    const state = stateOf(fixtureRpc({ ...fixture, code: { [at]: `${code.slice(0, -2)}00` as Hex } }));
    await expect(state.code(vault)).rejects.toThrow(/hashes to 0x[0-9a-f]{64}, the proven code hash is/);
  });

  it("refuses everything of an account whose eth_getProof errs or is not a proof", async () => {
    for (const change of [
      () => {
        throw new Error("method eth_getProof not supported");
      },
      () => null,
      () => ({ accountProof: "0x" }),
    ]) {
      const rpc = fixtureRpc(fixture, { change: (m, _p, a) => (m === "eth_getProof" ? change() : a) });
      const state = stateOf(rpc);
      await expect(state.slot(vault, slots[0]!)).rejects.toMatchObject({ account: vault, slot: slots[0] });
      await expect(state.account(vault)).rejects.toBeInstanceOf(ProofError);
    }
  });
});
