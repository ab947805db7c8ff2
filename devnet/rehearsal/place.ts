/**
 * Puts a faithful contract at its real mainnet address on a rehearsal chain. The creation code
 * is set as the address's code and called once: the constructor runs in the address's own
 * context (its storage, its `address(this)`, its immutables), and what it returns (the runtime
 * code, immutables filled in) becomes the address's code. No storage is copied or guessed. The
 * address has code from one block before its creation transaction (see below).
 */
import { type Address, encodeDeployData, type Hex } from "viem";
import { loadArtifact } from "../artifacts.js";
import { type ChainDriver, ScriptRevertError } from "../driver.js";

export async function placeContract(
  d: ChainDriver,
  at: Address,
  artifact: string,
  args: readonly unknown[],
  from: Address,
): Promise<{ tx: Hex; block: bigint }> {
  const { abi, bytecode } = loadArtifact(artifact);
  const creation = encodeDeployData({ abi, bytecode, args } as Parameters<typeof encodeDeployData>[0]);
  // anvil writes anvil_setCode into the state of its newest block: mine one first, so the code
  // shows from the block just before the creation transaction, not from an older block.
  await d.mineEmpty(1);
  await d.rpc("anvil_setCode", [at, creation]);
  const receipt = await d.send({ from, to: at, data: "0x", gas: 12_000_000n });
  const trace = await d.rpc<{ output?: Hex; error?: string }>("debug_traceTransaction", [
    receipt.transactionHash,
    { tracer: "callTracer" },
  ]);
  if (!trace.output || trace.output === "0x" || trace.error) {
    throw new ScriptRevertError(`constructor of ${artifact} at ${at} returned no code`, {
      tx: { from, to: at },
      reason: trace.error ?? "empty output",
    });
  }
  await d.rpc("anvil_setCode", [at, trace.output]);
  await d.mineEmpty(1); // the runtime code is in place from the very next block
  return { tx: receipt.transactionHash, block: receipt.blockNumber };
}
