/**
 * The reads a re-derivation made, kept with their answers: the proof check proves them one by
 * one, and a replay serves them again (one of them changed, to learn which figures rest on it)
 * without asking the RPC a second time.
 */
import type { Address } from "viem";
import { PinnedReader, type ReadOutcome, type ReadSpec } from "../read-plan/pinned-reader.js";

/** What a getter probe found (PinnedReader.probe). */
export type ProbeAnswer = Awaited<ReturnType<PinnedReader["probe"]>>;

export type RecordedRead =
  | { kind: "call"; spec: ReadSpec; outcome: ReadOutcome<unknown> }
  | { kind: "balance"; account: Address; value: bigint | null }
  | { kind: "probe"; to: Address; getter: string; args: readonly unknown[]; answer: ProbeAnswer }
  | { kind: "code"; account: Address; has: boolean | null };

const probeKey = (to: Address, getter: string, args: readonly unknown[]) =>
  `${to.toLowerCase()}|${getter}|${args.map((a) => String(a).toLowerCase()).join(",")}`;

/** A read as a reader names it: the call and its arguments on the contract, or the balance read. */
export function describeRead(r: RecordedRead): string {
  if (r.kind === "balance") return `eth_getBalance ${r.account}`;
  if (r.kind === "code") return `eth_getCode ${r.account}`;
  if (r.kind === "probe") return `${r.getter}${r.args.length ? ` [${r.args.join(", ")}]` : ""} on ${r.to} (probe)`;
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

  override async probe(to: Address, getter: string, args: readonly unknown[] = []): Promise<ProbeAnswer> {
    const answer = await super.probe(to, getter, args);
    this.reads.push({ kind: "probe", to, getter, args, answer });
    return answer;
  }

  override async hasCode(address: Address): Promise<boolean | null> {
    const has = await super.hasCode(address);
    this.reads.push({ kind: "code", account: address, has });
    return has;
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
  private readonly probes = new Map<string, ProbeAnswer>();
  private readonly codes = new Map<string, boolean | null>();

  constructor(from: PinnedReader, reads: readonly RecordedRead[], changed?: RecordedRead) {
    super(from.client, from.blockNumber, from.commandRpcUrl);
    for (const r of changed ? [...reads, changed] : reads) {
      if (r.kind === "call") this.calls.set(callKey(r.spec), r.outcome);
      else if (r.kind === "balance") this.balances.set(r.account.toLowerCase(), r.value);
      else if (r.kind === "probe") this.probes.set(probeKey(r.to, r.getter, r.args), r.answer);
      else this.codes.set(r.account.toLowerCase(), r.has);
    }
  }

  override async outcome<T>(spec: ReadSpec): Promise<ReadOutcome<T>> {
    return (this.calls.get(callKey(spec)) ?? { ok: false, kind: "failed", cause: "not read" }) as ReadOutcome<T>;
  }

  override async probe(to: Address, getter: string, args: readonly unknown[] = []): Promise<ProbeAnswer> {
    return this.probes.get(probeKey(to, getter, args)) ?? { failed: "not read" };
  }

  override async hasCode(address: Address): Promise<boolean | null> {
    return this.codes.get(address.toLowerCase()) ?? null;
  }

  override async nativeBalance(address: Address): Promise<bigint> {
    const v = this.balances.get(address.toLowerCase());
    if (v === undefined || v === null) throw new Error(`balance of ${address} not read`);
    return v;
  }
}
