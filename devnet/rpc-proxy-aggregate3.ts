/**
 * What the fault proxy needs to fail one call inside a Multicall3 `aggregate3`: the inner calls
 * of an `eth_call` (to a Multicall3 contract, or deployless: viem's deploy-and-call wrapper
 * carrying Multicall3's creation code and the `aggregate3` calldata), the same call without the
 * failing ones, and the answer with a revert put back in each failing slot. Decoding and encoding
 * are viem's (Multicall3's ABI and the deployless wrapper's bytecode as viem sends them).
 */
import {
  type Address,
  decodeAbiParameters,
  decodeFunctionData,
  decodeFunctionResult,
  deploylessCallViaBytecodeBytecode,
  encodeAbiParameters,
  encodeErrorResult,
  encodeFunctionData,
  encodeFunctionResult,
  type Hex,
  multicall3Abi,
  parseAbi,
} from "viem";

type Call3 = { target: Address; allowFailure: boolean; callData: Hex };

export type InnerCalls = {
  calls: readonly Call3[];
  /** Deployless: the creation code sent with the calldata (null: a call to a deployed Multicall3). */
  code: Hex | null;
};

/** The inner calls to fail (their indices). */
export type InnerFaults = InnerCalls & { failing: number[] };

const AGGREGATE3 = "0x82ad56cb";
const BYTES_BYTES = [{ type: "bytes" }, { type: "bytes" }] as const;

/** The aggregate3 calls inside `eth_call` params, or null when it is not an aggregate3. */
export function innerCalls(params: unknown): InnerCalls | null {
  if (!Array.isArray(params)) return null;
  const tx = params[0] as { to?: unknown; data?: unknown; input?: unknown } | undefined;
  const data = tx?.data ?? tx?.input;
  if (typeof data !== "string") return null;
  try {
    if (typeof tx?.to === "string" && data.toLowerCase().startsWith(AGGREGATE3))
      return { calls: decodeAggregate3(data as Hex), code: null };
    if (tx?.to == null && data.toLowerCase().startsWith(deploylessCallViaBytecodeBytecode.toLowerCase())) {
      const [code, calldata] = decodeAbiParameters(
        BYTES_BYTES,
        `0x${data.slice(deploylessCallViaBytecodeBytecode.length)}`,
      );
      if (!calldata.toLowerCase().startsWith(AGGREGATE3)) return null;
      return { calls: decodeAggregate3(calldata), code };
    }
  } catch {
    return null; // not decodable as an aggregate3: an ordinary call
  }
  return null;
}

function decodeAggregate3(data: Hex): readonly Call3[] {
  const { functionName, args } = decodeFunctionData({ abi: multicall3Abi, data });
  if (functionName !== "aggregate3") throw new Error("not aggregate3");
  return args[0] as readonly Call3[];
}

/** The `eth_call` params with only the inner calls that do not fail. */
export function withoutInnerCalls(params: unknown[], inner: InnerFaults): unknown[] {
  const kept = inner.calls.filter((_, i) => !inner.failing.includes(i));
  const calldata = encodeFunctionData({ abi: multicall3Abi, functionName: "aggregate3", args: [kept] });
  const tx = params[0] as Record<string, unknown>;
  const data =
    inner.code === null
      ? calldata
      : `${deploylessCallViaBytecodeBytecode}${encodeAbiParameters(BYTES_BYTES, [inner.code, calldata]).slice(2)}`;
  const { input: _input, ...rest } = tx;
  return [{ ...rest, data }, ...params.slice(1)];
}

// A revert with a reason, as a contract's `require(false, "injected fault")` returns it.
const INJECTED_REVERT = encodeErrorResult({
  abi: parseAbi(["error Error(string)"]),
  errorName: "Error",
  args: ["injected fault"],
});

/**
 * The aggregate3 answer for every inner call: the upstream's results for the calls it was sent
 * (`upstream`, null when none was sent) in their places, and a revert in each failing slot.
 */
export function spliceInnerFaults(upstream: Hex | null, inner: InnerFaults): Hex {
  const got = upstream
    ? [...decodeFunctionResult({ abi: multicall3Abi, functionName: "aggregate3", data: upstream })]
    : [];
  const results = inner.calls.map((_, i) =>
    inner.failing.includes(i) ? { success: false, returnData: INJECTED_REVERT } : got.shift()!,
  );
  return encodeFunctionResult({ abi: multicall3Abi, functionName: "aggregate3", result: results });
}
