/**
 * The proof check of a re-derivation: the header of the trusted block hash gives the state root;
 * every read with a proof plan is proved from eth_getProof (one request per account, every slot
 * it needs) and its proven value must equal what eth_call answered. A read without a plan stays
 * "RPC-trusted" and says why; a proof that does not verify, or proves another value, fails and
 * names the account and the slot.
 */

import type { NetworkConfig } from "@kusd/core";
import { type Address, type Hex, numberToHex, type PublicClient } from "viem";
import { headerHash, type RpcHeader } from "./header.js";
import { ProofError, type ProvenAccount, proveAccount, proveSlot } from "./merkle-proof.js";
import { contractStorage, type PlanOrReason, planFor } from "./proof-plans.js";
import type { RecordedRead } from "./recorded-reads.js";

export type ReadProof = {
  read: string;
  /** no-value: the call reverted or failed, so it returned nothing to prove (its figures are unknown). */
  status: "proven" | "rpc-trusted" | "failed" | "no-value";
  detail: string;
  account?: Address;
  slot?: Hex;
};

export type ProofReport = {
  /** The block hash every proof rests on, and who vouches for it. */
  anchor: { blockHash: Hex; source: string };
  header: { ok: boolean; detail: string; stateRoot: Hex | null };
  reads: ReadProof[];
  /** Every plan's proof verified and proved the value eth_call answered (RPC-trusted reads aside). */
  ok: boolean;
};

export function describeRead(r: RecordedRead): string {
  if (r.kind === "balance") return `eth_getBalance ${r.account}`;
  const args = r.spec.args?.length ? ` [${r.spec.args.join(", ")}]` : "";
  return `${r.spec.signature}${args} on ${r.spec.to}`;
}

type EthProof = {
  accountProof: Hex[];
  storageProof: { key: Hex; proof: Hex[] }[];
};

/** Proves `reads` at `blockNumber` against the header whose hash is `anchor.blockHash`. */
export async function proveReads(
  reads: readonly RecordedRead[],
  o: {
    client: PublicClient;
    blockNumber: bigint;
    blockTimestamp: bigint;
    anchor: ProofReport["anchor"];
    network: NetworkConfig;
  },
): Promise<ProofReport> {
  const raw = (await o.client.request({
    method: "eth_getBlockByHash",
    params: [o.anchor.blockHash, false],
  } as never)) as RpcHeader | null;
  const failedAll = (detail: string): ProofReport => ({
    anchor: o.anchor,
    header: { ok: false, detail, stateRoot: null },
    reads: reads.map((r) => ({ read: describeRead(r), status: "failed", detail })),
    ok: false,
  });
  if (!raw) return failedAll(`no block with hash ${o.anchor.blockHash} on this RPC`);
  const computed = headerHash(raw);
  if (computed.toLowerCase() !== o.anchor.blockHash.toLowerCase() || BigInt(raw.number) !== o.blockNumber)
    return failedAll(
      `the header the RPC gave for ${o.anchor.blockHash} hashes to ${computed} (number ${BigInt(raw.number)}): not that block's header`,
    );
  const header = { ok: true, detail: `header hashes to ${o.anchor.blockHash}`, stateRoot: raw.stateRoot };

  const storage = contractStorage(o.network);
  const plans = reads.map((r): PlanOrReason | null => {
    if (r.kind === "balance")
      return r.value === null
        ? null
        : { plan: { inputs: [{ account: r.account, balance: true }], value: ([x]) => x! } };
    return r.outcome.ok ? planFor(r.spec, storage, o.network.weth.address) : null;
  });

  // One eth_getProof per account, with every slot any plan needs of it.
  const wanted = new Map<string, { account: Address; slots: Set<Hex> }>();
  for (const p of plans)
    if (p && "plan" in p)
      for (const i of p.plan.inputs) {
        const key = i.account.toLowerCase();
        const entry = wanted.get(key) ?? { account: i.account, slots: new Set<Hex>() };
        if ("slot" in i) entry.slots.add(i.slot);
        wanted.set(key, entry);
      }
  type Proven = { account: ProvenAccount | ProofError; slots: Map<Hex, bigint | ProofError> };
  const proven = new Map<string, Proven>();
  await Promise.all(
    [...wanted.values()].map(async ({ account, slots }) => {
      const keys = [...slots];
      const entry: Proven = { account: new ProofError("not proved", account, null), slots: new Map() };
      proven.set(account.toLowerCase(), entry);
      let answer: EthProof;
      try {
        answer = (await o.client.request({
          method: "eth_getProof",
          params: [account, keys, numberToHex(o.blockNumber)],
        } as never)) as EthProof;
        if (!Array.isArray(answer?.accountProof) || !Array.isArray(answer.storageProof))
          throw new ProofError(`the RPC's eth_getProof of ${account} is not a proof`, account, null);
        entry.account = await proveAccount(raw.stateRoot, account, answer.accountProof);
      } catch (e) {
        entry.account =
          e instanceof ProofError
            ? e
            : new ProofError(`eth_getProof of ${account} failed: ${(e as Error).message}`, account, null);
        return;
      }
      const storageRoot = entry.account.storageRoot;
      await Promise.all(
        keys.map(async (slot) => {
          const p = answer.storageProof.find((x) => BigInt(x.key) === BigInt(slot));
          try {
            if (!p) throw new ProofError(`the RPC gave no proof of slot ${slot} of ${account}`, account, slot);
            entry.slots.set(slot, await proveSlot(storageRoot, account, slot, p.proof));
          } catch (e) {
            entry.slots.set(slot, e as ProofError);
          }
        }),
      );
    }),
  );

  const results = reads.map((r, i): ReadProof => {
    const read = describeRead(r);
    const p = plans[i];
    if (p === null || p === undefined)
      return { read, status: "no-value", detail: "the call returned no value: nothing to prove" };
    if ("trusted" in p) return { read, status: "rpc-trusted", detail: p.trusted };
    const values: bigint[] = [];
    for (const input of p.plan.inputs) {
      const acct = proven.get(input.account.toLowerCase())!;
      // A read rests on its account's proof first: with that refused, no slot of it is proven.
      const got =
        acct.account instanceof ProofError || !("slot" in input)
          ? acct.account
          : (acct.slots.get(input.slot) ??
            new ProofError(
              `the RPC gave no proof of slot ${input.slot} of ${input.account}`,
              input.account,
              input.slot,
            ));
      if (got instanceof ProofError)
        return {
          read,
          status: "failed",
          detail: got.message,
          account: got.account,
          ...(got.slot && { slot: got.slot }),
        };
      values.push("slot" in input ? (got as bigint) : (got as ProvenAccount).balance);
    }
    const value = p.plan.value(values, o.blockTimestamp);
    if (value === null)
      return { read, status: "rpc-trusted", detail: "its source computes it from outside storage at this block" };
    const answered = r.kind === "balance" ? r.value : r.outcome.ok ? r.outcome.value : undefined;
    if (value !== answered) {
      const first = p.plan.inputs[0]!;
      return {
        read,
        status: "failed",
        detail: `eth_call answered ${String(answered)}, the proven storage says ${String(value)}`,
        account: first.account,
        ...("slot" in first && { slot: first.slot }),
      };
    }
    return {
      read,
      status: "proven",
      detail: p.plan.inputs
        .map((x) => ("slot" in x ? `${x.account} slot ${x.slot}` : `${x.account} balance`))
        .join(", "),
    };
  });
  return { anchor: o.anchor, header, reads: results, ok: results.every((r) => r.status !== "failed") };
}
