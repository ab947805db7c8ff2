/**
 * One recorded read executed over proven state, and its answer compared with what the RPC
 * answered. A call (or a getter's probe) runs as Multicall3 runs it inside aggregate3 (from
 * Multicall3, with the block's gas), so what it returns is what eth_call should have returned for
 * it; a balance is the proven account's, code presence its proven code hash. The same answer
 * proves the read; another fails it, naming both; a state access that does not prove fails it,
 * naming the account, the slot and why.
 */
import type { EVM } from "@ethereumjs/evm";
import { createAddressFromString } from "@ethereumjs/util";
import {
  type Abi,
  type Address,
  bytesToHex,
  decodeFunctionResult,
  encodeFunctionData,
  getAddress,
  type Hex,
  hexToBytes,
  parseAbiItem,
  zeroAddress,
} from "viem";
import { abiFromCastSignature, MULTICALL3 } from "../read-plan/pinned-reader.js";
import { BlockContextError } from "./block-evm.js";
import type { RpcHeader } from "./header.js";
import { EMPTY_CODE_HASH, ProofError } from "./merkle-proof.js";
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

function refused(read: string, e: unknown): ReadProof {
  if (e instanceof ProofError)
    return { read, status: "failed", detail: e.message, account: e.account, ...(e.slot && { slot: e.slot }) };
  const why = e instanceof BlockContextError ? e.message : `execution failed: ${(e as Error)?.message ?? String(e)}`;
  return { read, status: "failed", detail: why };
}

/** What the call did over proven state: returned data, or reverted (an exceptional halt). */
export type Ran = { returned: Hex; reverted: string | null; touched: ProvenStateManager["touched"] };

/** A view call executed over proven state, from Multicall3, with the block's gas. */
export async function executeCall(ctx: ExecutionContext, to: Address, data: Hex): Promise<Ran> {
  const { evm, stateManager } = await ctx.evm();
  const result = await evm.runCall({
    caller: createAddressFromString(MULTICALL3),
    origin: createAddressFromString(zeroAddress),
    to: createAddressFromString(to),
    data: hexToBytes(data),
    gasLimit: BigInt(ctx.header.gasLimit),
    block: ctx.block,
    skipBalance: true,
  });
  const e = result.execResult.exceptionError;
  return {
    returned: bytesToHex(result.execResult.returnValue),
    reverted: e ? String(e.error) : null,
    touched: stateManager.touched,
  };
}

const provenBy = (ran: Ran, also = "") =>
  `executed over proven state (${ran.touched.accounts.size} accounts, ${ran.touched.slots.size} slots)${also}`;

/** The probe's answer as PinnedReader.probe gives it: any data counts as returned. */
const probed = (ran: Ran) => (ran.reverted ? "reverts" : ran.returned === "0x" ? "no data" : "returned");

export async function executeRead(r: RecordedRead, ctx: ExecutionContext): Promise<ReadProof> {
  const read = describeRead(r);
  try {
    switch (r.kind) {
      case "balance": {
        if (r.value === null) return { read, status: "no-value", detail: "the RPC gave no balance: nothing to prove" };
        const account = await ctx.state.account(r.account);
        return account.balance === r.value
          ? { read, status: "proven", detail: "the account's balance, proven" }
          : {
              read,
              status: "failed",
              detail: `the RPC answered ${r.value}, the proven account holds ${account.balance}`,
              account: getAddress(r.account),
            };
      }
      case "code": {
        if (r.has === null)
          return { read, status: "no-value", detail: "the RPC's eth_getCode failed: nothing to prove" };
        const has = (await ctx.state.account(r.account)).codeHash.toLowerCase() !== EMPTY_CODE_HASH;
        return has === r.has
          ? { read, status: "proven", detail: `the account's code hash, proven: ${has ? "code" : "no code"}` }
          : {
              read,
              status: "failed",
              detail: `the RPC answered ${r.has ? "code" : "no code"}, the proven account has ${has ? "code" : "none"}`,
              account: getAddress(r.account),
            };
      }
      case "probe": {
        if (typeof r.answer === "object")
          return { read, status: "no-value", detail: `the RPC's call failed (${r.answer.failed}): nothing to prove` };
        const abi = [parseAbiItem(`function ${r.getter} view returns (bytes32)`)] as Abi;
        const data = encodeFunctionData({ abi, functionName: (abi[0] as { name: string }).name, args: r.args });
        const ran = await executeCall(ctx, r.to, data);
        return probed(ran) === r.answer
          ? { read, status: "proven", detail: provenBy(ran, `: it ${r.answer} there too`) }
          : {
              read,
              status: "failed",
              detail: `eth_call answered ${r.answer}; executed over proven state it ${probed(ran)}`,
              account: getAddress(r.to),
            };
      }
      case "call": {
        const { spec, outcome } = r;
        if (!outcome.ok && outcome.kind === "failed")
          return { read, status: "no-value", detail: `the RPC's call failed (${outcome.cause}): nothing to prove` };
        const abi = abiFromCastSignature(spec.signature);
        const functionName = (abi[0] as { name: string }).name;
        const ran = await executeCall(ctx, spec.to, encodeFunctionData({ abi, functionName, args: spec.args ?? [] }));
        let executed: { ok: true; value: unknown } | { ok: false; why: string };
        if (ran.reverted) executed = { ok: false, why: `reverts (${ran.reverted})` };
        else if (ran.returned === "0x") executed = { ok: false, why: 'returns no data ("0x")' };
        else
          try {
            executed = { ok: true, value: decodeFunctionResult({ abi, functionName, data: ran.returned }) };
          } catch {
            executed = { ok: false, why: `returns ${ran.returned}, which does not decode as ${spec.signature}` };
          }
        const same = outcome.ok ? executed.ok && shown(executed.value) === shown(outcome.value) : !executed.ok;
        if (same)
          return {
            read,
            status: "proven",
            detail: provenBy(ran, executed.ok ? "" : `: it ${executed.why} there too`),
          };
        return {
          read,
          status: "failed",
          detail: `eth_call answered ${outcome.ok ? shown(outcome.value) : outcome.cause}; executed over proven state it ${executed.ok ? `returns ${shown(executed.value)}` : executed.why}`,
          account: getAddress(spec.to),
        };
      }
    }
  } catch (e) {
    return refused(read, e);
  }
}
