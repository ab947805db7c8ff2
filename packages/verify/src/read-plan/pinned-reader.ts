/**
 * Chain reads pinned to one block, each described by a cast-style signature
 * ("balanceOf(address)(uint256)"). The same string drives the viem read and the `cast call`
 * command published in `verifyVia`, so a reproduction command cannot drift from the read it
 * reproduces.
 *
 * On the wire the reads of a block travel together: every read started in the same turn of the
 * event loop, by any report, goes out in one Multicall3 `aggregate3` (viem's `multicall`, each
 * call with allowFailure, so a call that fails fails only its own read), to the canonical
 * Multicall3 where it has code at the block and deployless (its creation code sent with the
 * call) before that. A reader runs each figure's own `cast call`; only our transport batches.
 */

import type { NotDeployedRead, Read } from "@kusd/core";
import { KusdError, MULTICALL3_ADDRESS } from "@kusd/core";
import {
  type Abi,
  AbiDecodingZeroDataError,
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  ContractFunctionZeroDataError,
  multicall3Abi,
  type PublicClient,
  parseAbiItem,
} from "viem";
import { hasCodeAt } from "./code-presence.js";

export type { Read };

export class ChainReadError extends KusdError<{ to?: Address; signature?: string; block: bigint; cause?: string }> {
  override name = "ChainReadError";
  readonly code: string = "chain_read_failed";
  constructor(message: string, details: { to?: Address; signature?: string; block: bigint; cause?: string }) {
    super(message, details);
  }
}

export type ReadSpec = { to: Address; signature: string; args?: readonly (string | bigint | number)[] };

/** Multicall3 at its canonical address (packages/core/src/network/multicall3.ts). */
export const MULTICALL3: Address = MULTICALL3_ADDRESS;

/**
 * The most calldata one aggregate3 carries: every report's reads of a block fit in one (the
 * largest, /api/risk-status, sends about 12 KB), while an eth_call stays far below the gas
 * providers allow one call (16 gas a calldata byte).
 */
export const BATCH_MAX_BYTES = 48_000;

/**
 * How a read ended: its value; a revert (the contract is there and refused); no data (no code at
 * the block, or a function that returns nothing); or the read itself failed (the RPC).
 */
export type ReadOutcome<T> =
  | { ok: true; value: T }
  | { ok: false; kind: "reverted" | "no data" | "failed"; cause: string };

/** "balanceOf(address)(uint256)" → the viem ABI item `function balanceOf(address) view returns (uint256)`. */
export function abiFromCastSignature(signature: string): Abi {
  const m = /^(\w+)\(([^()]*)\)\((.*)\)$/.exec(signature);
  if (!m) throw new ChainReadError(`not a cast signature: ${signature}`, { signature, block: 0n });
  return [parseAbiItem(`function ${m[1]}(${m[2]}) view returns (${m[3]})`)] as Abi;
}

const shellArg = (v: string | bigint | number) =>
  typeof v === "string" && !/^[\w.:-]+$/.test(v) ? `'${v}'` : String(v);

/** Where a block's batch goes: Multicall3 where it has code at the block, deployless before (or when unknown). */
export async function batchTarget(
  client: PublicClient,
  block: bigint,
): Promise<{ multicallAddress: Address } | { deployless: true }> {
  return (await hasCodeAt(client, MULTICALL3, block)) === true
    ? { multicallAddress: MULTICALL3 }
    : { deployless: true };
}

/** What a failed call was, from viem's error: the contract reverting, no data, or the RPC. */
function failure(e: unknown): { kind: "reverted" | "no data" | "failed"; cause: string } {
  const err = e instanceof BaseError ? e : null;
  const revert = err?.walk((x) => x instanceof ContractFunctionRevertedError) as ContractFunctionRevertedError | null;
  if (revert) return { kind: "reverted", cause: `reverted${revert.reason ? `: ${revert.reason}` : ""}` };
  if (err?.walk((x) => x instanceof ContractFunctionZeroDataError || x instanceof AbiDecodingZeroDataError))
    return { kind: "no data", cause: 'returned no data ("0x")' };
  const deepest = err?.walk() as BaseError | undefined;
  return {
    kind: "failed",
    cause: (deepest?.shortMessage ?? err?.shortMessage ?? (e as Error)?.message ?? String(e)).split("\n")[0]!,
  };
}

export class PinnedReader {
  constructor(
    readonly client: PublicClient,
    readonly blockNumber: bigint,
    /** The RPC URL printed in commands: a public one, never a URL carrying a key. */
    readonly commandRpcUrl: string,
  ) {}

  /** One call through the block's batch (viem's multicall scheduler joins the calls of one turn). */
  private async batched<T>(contract: { address: Address; abi: Abi; functionName: string; args?: readonly unknown[] }) {
    const target = await batchTarget(this.client, this.blockNumber);
    try {
      const results = (await this.client.multicall({
        contracts: [{ ...contract, args: contract.args ?? [] }],
        blockNumber: this.blockNumber,
        allowFailure: true,
        batchSize: BATCH_MAX_BYTES,
        ...target,
      } as never)) as unknown[];
      const r = results[0] as { status: "success"; result: T } | { status: "failure"; error: unknown };
      return r.status === "success"
        ? ({ ok: true, value: r.result } as const)
        : ({ ok: false, ...failure(r.error) } as const);
    } catch (e) {
      return { ok: false, ...failure(e) } as const;
    }
  }

  /** The read's value, or how it failed. */
  outcome<T>(spec: ReadSpec): Promise<ReadOutcome<T>> {
    const abi = abiFromCastSignature(spec.signature);
    return this.batched<T>({
      address: spec.to,
      abi,
      functionName: (abi[0] as { name: string }).name,
      args: spec.args ?? [],
    });
  }

  async call<T>(spec: ReadSpec): Promise<T> {
    const r = await this.outcome<T>(spec);
    if (r.ok) return r.value;
    throw new ChainReadError(`read failed: ${spec.signature} on ${spec.to}`, {
      to: spec.to,
      signature: spec.signature,
      block: this.blockNumber,
      cause: r.cause,
    });
  }

  /**
   * Whether a getter answers at the block: "returned" (any data), "no data", "reverts", or the
   * read failed. Its data is read as one word (`bytes32`), whatever the getter returns.
   */
  async probe(
    to: Address,
    getter: string,
    args: readonly unknown[] = [],
  ): Promise<"returned" | "no data" | "reverts" | { failed: string }> {
    const abi = [parseAbiItem(`function ${getter} view returns (bytes32)`)] as Abi;
    const r = await this.batched({ address: to, abi, functionName: (abi[0] as { name: string }).name, args });
    if (r.ok) return "returned";
    if (r.kind === "reverted") return "reverts";
    if (r.kind === "no data") return "no data";
    // A getter returning less than a word still returned something.
    return /data size|out of bounds|too small/i.test(r.cause) ? "returned" : { failed: r.cause };
  }

  /** Whether the address has code at the block (null: eth_getCode failed). */
  hasCode(address: Address): Promise<boolean | null> {
    return hasCodeAt(this.client, address, this.blockNumber);
  }

  /**
   * The address's ether at the block: Multicall3's getEthBalance inside the block's batch where
   * Multicall3 has code, else eth_getBalance (its `cast balance` is the same either way).
   */
  async nativeBalance(address: Address): Promise<bigint> {
    const fail = (cause: string) =>
      new ChainReadError(`balance read failed: ${address}`, { to: address, block: this.blockNumber, cause });
    const target = await batchTarget(this.client, this.blockNumber);
    if ("multicallAddress" in target) {
      const r = await this.batched<bigint>({
        address: target.multicallAddress,
        abi: multicall3Abi,
        functionName: "getEthBalance",
        args: [address],
      });
      if (r.ok) return r.value;
      throw fail(r.cause);
    }
    try {
      return await this.client.getBalance({ address, blockNumber: this.blockNumber });
    } catch (e) {
      throw fail(failure(e).cause);
    }
  }

  /**
   * The reproduction command for `spec`, annotated with the report field it reproduces and the
   * raw value it returns: `cast call … --block N --rpc-url …  # <field> = <raw>`.
   */
  command(spec: ReadSpec, field: string, raw: bigint | string | boolean, decimals?: number): string {
    const args = (spec.args ?? []).map(shellArg).join(" ");
    const note = `${field} = ${raw}${decimals === undefined ? "" : ` (${decimals} decimals)`}`;
    return `cast call ${spec.to} '${spec.signature}'${args ? ` ${args}` : ""} --block ${this.blockNumber} --rpc-url ${this.commandRpcUrl}  # ${note}`;
  }

  /** The command alone, annotated with the field it re-checks (for figures derived from indexed rows, not read here). */
  recheckCommand(spec: ReadSpec, field: string): string {
    return this.command(spec, field, "").replace(/ = (\(\d+ decimals\))?$/, "");
  }

  balanceCommand(address: Address, field: string, raw: bigint): string {
    return `cast balance ${address} --block ${this.blockNumber} --rpc-url ${this.commandRpcUrl}  # ${field} = ${raw} (18 decimals)`;
  }
}

/**
 * Reads that never throw for a failed chain read: each failure is null (unknown, never a guess)
 * and is described in `failedReads`, which a report publishes. A read of a contract that had no
 * code yet at the block is null too, but listed in `notDeployed`: nothing failed, and the report
 * is complete. Only a read that came back empty or failed asks whether there is code (a revert
 * means there is).
 *
 * `decimals` annotates the command; it may be given later (a getter), when it is itself a read
 * of the same batch.
 */
export function tolerantReads(r: PinnedReader) {
  const failedReads: string[] = [];
  const notDeployed: NotDeployedRead[] = [];
  async function read<T>(spec: ReadSpec, decimals?: number | (() => number | undefined)): Promise<Read<T>> {
    const result = await r.outcome<T>(spec);
    if (result.ok) {
      const value = result.value;
      return {
        value,
        command: (field) =>
          r.command(spec, field, value as bigint, typeof decimals === "function" ? decimals() : decimals),
      };
    }
    const label = `${spec.signature}${spec.args?.length ? ` [${spec.args.join(", ")}]` : ""}`;
    if (result.kind !== "reverted" && (await r.hasCode(spec.to)) === false)
      notDeployed.push({ to: spec.to, read: label, reason: "not_deployed" });
    else failedReads.push(`${label} on ${spec.to}: ${result.cause}`);
    return null;
  }
  return { read, failedReads, notDeployed };
}
