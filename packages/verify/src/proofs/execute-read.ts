/**
 * One recorded read executed over proven state, and its answer compared with what the RPC
 * answered. A call runs as Multicall3 runs it inside aggregate3 (from Multicall3, with the block's
 * gas), so what it returns is what eth_call should have returned for it; a balance is the proven
 * account's. The same answer proves the read; another fails it, naming both; a state access that
 * does not prove fails it, naming the account, the slot and why.
 */
import type { EVM } from "@ethereumjs/evm";
import { createAddressFromString } from "@ethereumjs/util";
import {
  bytesToHex,
  decodeFunctionResult,
  encodeFunctionData,
  getAddress,
  type Hex,
  hexToBytes,
  zeroAddress,
} from "viem";
import { abiFromCastSignature, MULTICALL3, type ReadOutcome } from "../read-plan/pinned-reader.js";
import { BlockContextError } from "./block-evm.js";
import type { RpcHeader } from "./header.js";
import { ProofError } from "./merkle-proof.js";
import type { ProvenState } from "./proven-state.js";
import type { ProvenStateManager } from "./proven-state-manager.js";
import type { ReadProof } from "./read-proof.js";
import { describeRead, type RecordedRead } from "./recorded-reads.js";

export type ExecutionContext = {
  state: ProvenState;
  header: RpcHeader;
  block: NonNullable<Parameters<EVM["runCall"]>[0]["block"]>;
  evm: () => Promise<{ evm: EVM; stateManager: ProvenStateManager }>;
};

/** A value as it is shown: bigints as digits, the rest as JSON. */
export function shown(v: unknown): string {
  return JSON.stringify(v, (_, x) => (typeof x === "bigint" ? x.toString() : x)) ?? String(v);
}

type Executed = { ok: true; value: unknown } | { ok: false; why: string };

function refused(read: string, e: unknown): ReadProof {
  if (e instanceof ProofError)
    return { read, status: "failed", detail: e.message, account: e.account, ...(e.slot && { slot: e.slot }) };
  const why = e instanceof BlockContextError ? e.message : `execution failed: ${(e as Error)?.message ?? String(e)}`;
  return { read, status: "failed", detail: why };
}

function outcomeShown(o: ReadOutcome<unknown>): string {
  return o.ok ? shown(o.value) : o.cause;
}

export async function executeRead(r: RecordedRead, ctx: ExecutionContext): Promise<ReadProof> {
  const read = describeRead(r);
  if (r.kind === "balance") {
    if (r.value === null) return { read, status: "no-value", detail: "the RPC gave no balance: nothing to prove" };
    try {
      const account = await ctx.state.account(r.account);
      return account.balance === r.value
        ? { read, status: "proven", detail: "the account's balance, proven" }
        : {
            read,
            status: "failed",
            detail: `the RPC answered ${r.value}, the proven account holds ${account.balance}`,
            account: r.account,
          };
    } catch (e) {
      return refused(read, e);
    }
  }
  const { spec, outcome } = r;
  if (!outcome.ok && outcome.kind === "failed")
    return { read, status: "no-value", detail: `the RPC's call failed (${outcome.cause}): nothing to prove` };
  const abi = abiFromCastSignature(spec.signature);
  const functionName = (abi[0] as { name: string }).name;
  let executed: Executed;
  let touched: ProvenStateManager["touched"];
  try {
    const { evm, stateManager } = await ctx.evm();
    touched = stateManager.touched;
    const result = await evm.runCall({
      caller: createAddressFromString(MULTICALL3),
      origin: createAddressFromString(zeroAddress),
      to: createAddressFromString(spec.to),
      data: hexToBytes(encodeFunctionData({ abi, functionName, args: spec.args ?? [] })),
      gasLimit: BigInt(ctx.header.gasLimit),
      block: ctx.block,
      skipBalance: true,
    });
    const returned = bytesToHex(result.execResult.returnValue);
    if (result.execResult.exceptionError)
      executed = { ok: false, why: `reverts (${result.execResult.exceptionError.error})` };
    else if (returned === "0x") executed = { ok: false, why: 'returns no data ("0x")' };
    else
      try {
        executed = { ok: true, value: decodeFunctionResult({ abi, functionName, data: returned as Hex }) };
      } catch {
        executed = { ok: false, why: `returns ${returned}, which does not decode as ${spec.signature}` };
      }
  } catch (e) {
    return refused(read, e);
  }
  const same = outcome.ok ? executed.ok && shown(executed.value) === shown(outcome.value) : !executed.ok;
  if (same)
    return {
      read,
      status: "proven",
      detail: `executed over proven state (${touched.accounts.size} accounts, ${touched.slots.size} slots)${outcome.ok ? "" : `: it ${(executed as { why: string }).why} there too`}`,
    };
  return {
    read,
    status: "failed",
    detail: `eth_call answered ${outcomeShown(outcome)}; executed over proven state it ${executed.ok ? `returns ${shown(executed.value)}` : executed.why}`,
    account: getAddress(spec.to),
  };
}
