/**
 * EAS and its SchemaRegistry where Base has them (its OP-stack predeploys, packages/core/src/network/eas.ts),
 * from the published package's own creation code: each creation run once with eth_call (which
 * answers the runtime code, the registry's address in EAS's immutables) and the runtime put in
 * place with anvil_setCode, as Multicall3 is (multicall3.ts). On Base the predeploys sit behind
 * OP's proxy; the code a call reaches, its events and its address are the same.
 */

import { EAS_ADDRESS, SCHEMA_REGISTRY_ADDRESS } from "@kusd/core";
import { encodeAbiParameters, type Hex } from "viem";
import { easArtifact } from "./build.js";
import { rpcCall } from "./rpc.js";

async function runtimeOf(rpcUrl: string, creation: Hex): Promise<Hex> {
  const runtime = await rpcCall<Hex>(rpcUrl, "eth_call", [{ data: creation, gas: "0x1c9c380" }, "latest"]);
  if (!runtime || runtime === "0x") throw new Error("EAS creation code returned no runtime code");
  return runtime;
}

export async function installEas(rpcUrl: string): Promise<void> {
  await rpcCall(rpcUrl, "anvil_setCode", [
    SCHEMA_REGISTRY_ADDRESS,
    await runtimeOf(rpcUrl, easArtifact("SchemaRegistry").bytecode),
  ]);
  const args = encodeAbiParameters([{ type: "address" }], [SCHEMA_REGISTRY_ADDRESS]).slice(2);
  await rpcCall(rpcUrl, "anvil_setCode", [
    EAS_ADDRESS,
    await runtimeOf(rpcUrl, `${easArtifact("EAS").bytecode}${args}`),
  ]);
}
