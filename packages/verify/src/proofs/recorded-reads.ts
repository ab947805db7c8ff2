/**
 * The reads a re-derivation made, kept with their answers: the proof check proves them one by
 * one, and a replay serves them again (one of them changed, to learn which figures rest on it)
 * without asking the RPC a second time.
 */
import type { Address } from "viem";
import { PinnedReader, type ReadOutcome, type ReadSpec } from "../read-plan/pinned-reader.js";

export type RecordedRead =
  | { kind: "call"; spec: ReadSpec; outcome: ReadOutcome<unknown> }
  | { kind: "balance"; account: Address; value: bigint | null };

/** A read as a reader names it: the call and its arguments on the contract, or the balance read. */
export function describeRead(r: RecordedRead): string {
  if (r.kind === "balance") return `eth_getBalance ${r.account}`;
  const args = r.spec.args?.length ? ` [${r.spec.args.join(", ")}]` : "";
  return `${r.spec.signature}${args} on ${r.spec.to}`;
}

export const callKey = (spec: ReadSpec) =>
  `${spec.to.toLowerCase()}|${spec.signature}|${(spec.args ?? []).map((a) => String(a).toLowerCase()).join(",")}`;

export class RecordingReader extends PinnedReader {
  readonly reads: RecordedRead[] = [];

  override async outcome<T>(spec: ReadSpec): Promise<ReadOutcome<T>> {
    const outcome = await super.outcome<T>(spec);
    this.reads.push({ kind: "call", spec, outcome });
    return outcome;
  }

  override async nativeBalance(address: Address): Promise<bigint> {
    try {
      const value = await super.nativeBalance(address);
      this.reads.push({ kind: "balance", account: address, value });
      return value;
    } catch (e) {
      this.reads.push({ kind: "balance", account: address, value: null });
      throw e;
    }
  }
}

/** Serves recorded answers (with `changed` in place of one of them); a read not recorded fails. */
export class ReplayReader extends PinnedReader {
  private readonly calls = new Map<string, ReadOutcome<unknown>>();
  private readonly balances = new Map<string, bigint | null>();

  constructor(from: PinnedReader, reads: readonly RecordedRead[], changed?: RecordedRead) {
    super(from.client, from.blockNumber, from.commandRpcUrl);
    for (const r of changed ? [...reads, changed] : reads) {
      if (r.kind === "call") this.calls.set(callKey(r.spec), r.outcome);
      else this.balances.set(r.account.toLowerCase(), r.value);
    }
  }

  override async outcome<T>(spec: ReadSpec): Promise<ReadOutcome<T>> {
    return (this.calls.get(callKey(spec)) ?? { ok: false, kind: "failed", cause: "not read" }) as ReadOutcome<T>;
  }

  override async nativeBalance(address: Address): Promise<bigint> {
    const v = this.balances.get(address.toLowerCase());
    if (v === undefined || v === null) throw new Error(`balance of ${address} not read`);
    return v;
  }
}
