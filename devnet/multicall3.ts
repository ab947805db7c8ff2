/**
 * Multicall3 at its canonical address on a devnet chain, as Base has it: Base has had Multicall3
 * since its early blocks (block 5,022), so a chain standing in for Base has it from its first
 * block too. Its code is Multicall3's own: the creation code viem sends with a deployless
 * multicall (captured from the call viem makes, not copied), run once, its runtime put in place
 * with anvil_setCode.
 */

import { MULTICALL3_ADDRESS } from "@kusd/core";
import { createPublicClient, custom, decodeAbiParameters, deploylessCallViaBytecodeBytecode, type Hex } from "viem";
import { rpcCall } from "./rpc.js";

/** Multicall3's creation code, as viem sends it in a deployless multicall. */
export async function multicall3CreationCode(): Promise<Hex> {
  let data: Hex | undefined;
  const capture = createPublicClient({
    transport: custom({
      request: async ({ method, params }) => {
        if (method === "eth_call") data = (params as [{ data: Hex }])[0].data;
        throw new Error("captured");
      },
    }),
  });
  await capture.multicall({ contracts: [], deployless: true, allowFailure: true }).catch(() => {});
  if (!data?.startsWith(deploylessCallViaBytecodeBytecode)) throw new Error("viem sent no deployless multicall");
  const [code] = decodeAbiParameters(
    [{ type: "bytes" }, { type: "bytes" }],
    `0x${data.slice(deploylessCallViaBytecodeBytecode.length)}`,
  );
  return code;
}

/** Puts Multicall3 at its canonical address (before the chain's first transaction, as on Base). */
export async function installMulticall3(rpcUrl: string): Promise<void> {
  const runtime = await rpcCall<Hex>(rpcUrl, "eth_call", [{ data: await multicall3CreationCode() }, "latest"]);
  if (!runtime || runtime === "0x") throw new Error("Multicall3's creation code returned no runtime code");
  await rpcCall(rpcUrl, "anvil_setCode", [MULTICALL3_ADDRESS, runtime]);
}
