/**
 * Chain reads pinned to one block, each described by a cast-style signature
 * ("balanceOf(address)(uint256)"). The same string drives the viem read and the `cast call`
 * command published in `verifyVia`, so a reproduction command cannot drift from the read it
 * reproduces.
 */
import { type Abi, type Address, type PublicClient, parseAbiItem } from "viem";
import { KusdError } from "../../core/errors.js";
import type { Read } from "../../core/reserves/por/snapshot.js";
import type { NotDeployedRead } from "../../core/schema-primitives.js";
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

/** "balanceOf(address)(uint256)" → the viem ABI item `function balanceOf(address) view returns (uint256)`. */
export function abiFromCastSignature(signature: string): Abi {
  const m = /^(\w+)\(([^()]*)\)\((.*)\)$/.exec(signature);
  if (!m) throw new ChainReadError(`not a cast signature: ${signature}`, { signature, block: 0n });
  return [parseAbiItem(`function ${m[1]}(${m[2]}) view returns (${m[3]})`)] as Abi;
}

const shellArg = (v: string | bigint | number) =>
  typeof v === "string" && !/^[\w.:-]+$/.test(v) ? `'${v}'` : String(v);

export class PinnedReader {
  constructor(
    readonly client: PublicClient,
    readonly blockNumber: bigint,
    /** The RPC URL printed in commands: a public one, never a URL carrying a key. */
    readonly commandRpcUrl: string,
  ) {}

  async call<T>(spec: ReadSpec): Promise<T> {
    const abi = abiFromCastSignature(spec.signature);
    const functionName = (abi[0] as { name: string }).name;
    try {
      return (await this.client.readContract({
        address: spec.to,
        abi,
        functionName,
        args: spec.args ?? [],
        blockNumber: this.blockNumber,
      })) as T;
    } catch (e) {
      throw new ChainReadError(`read failed: ${spec.signature} on ${spec.to}`, {
        to: spec.to,
        signature: spec.signature,
        block: this.blockNumber,
        cause: (e as Error).message?.split("\n")[0],
      });
    }
  }

  async nativeBalance(address: Address): Promise<bigint> {
    try {
      return await this.client.getBalance({ address, blockNumber: this.blockNumber });
    } catch (e) {
      throw new ChainReadError(`balance read failed: ${address}`, {
        to: address,
        block: this.blockNumber,
        cause: (e as Error).message?.split("\n")[0],
      });
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
 * is complete.
 */
export function tolerantReads(r: PinnedReader) {
  const failedReads: string[] = [];
  const notDeployed: NotDeployedRead[] = [];
  async function read<T>(spec: ReadSpec, decimals?: number): Promise<Read<T>> {
    try {
      const value = await r.call<T>(spec);
      return { value, command: (field) => r.command(spec, field, value as bigint, decimals) };
    } catch (e) {
      if (!(e instanceof ChainReadError)) throw e;
      const label = `${spec.signature}${spec.args?.length ? ` [${spec.args.join(", ")}]` : ""}`;
      if ((await hasCodeAt(r.client, spec.to, r.blockNumber)) === false)
        notDeployed.push({ to: spec.to, read: label, reason: "not_deployed" });
      else failedReads.push(`${label} on ${spec.to}: ${e.details.cause ?? e.message}`);
      return null;
    }
  }
  return { read, failedReads, notDeployed };
}
