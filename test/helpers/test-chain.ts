/**
 * A fresh anvil chain per test file, for contract rules that need a clean slate. Transactions
 * go through the devnet's ChainDriver (impersonated senders), so a revert surfaces as a
 * ScriptRevertError carrying the decoded reason.
 */
import type { Abi, Address, Hex } from "viem";
import { type AnvilHandle, startAnvil } from "../../devnet/anvil.js";
import { loadArtifact } from "../../devnet/artifacts.js";
import { ChainDriver, encode, ScriptRevertError } from "../../devnet/driver.js";
import { freePort } from "./ports.js";

export type TestChain = {
  anvil: AnvilHandle;
  d: ChainDriver;
  deploy(artifact: string, from: Address, args?: readonly unknown[]): Promise<Address>;
  send(from: Address, to: Address, artifact: string, fn: string, args?: readonly unknown[]): Promise<unknown>;
  read<T>(to: Address, artifact: string, fn: string, args?: readonly unknown[]): Promise<T>;
  /** Mines an empty block `seconds` after the current clock, so views see the new time. */
  advance(seconds: number): Promise<void>;
  stop(): Promise<void>;
};

export async function startTestChain(chainId = 8453): Promise<TestChain> {
  const start = Math.floor(Date.now() / 1000) - 86_400;
  const anvil = await startAnvil({ port: await freePort(), chainId, timestamp: start });
  const d = new ChainDriver(anvil.rpcUrl, start + 2);
  await d.rpc("anvil_autoImpersonateAccount", [true]);
  const abi = (artifact: string): Abi => loadArtifact(artifact).abi;
  return {
    anvil,
    d,
    async deploy(artifact, from, args = []) {
      await d.setBalances([from], 10n ** 24n);
      const { bytecode } = loadArtifact(artifact);
      return (await d.deploy(from, abi(artifact), bytecode as Hex, args)).contractAddress;
    },
    send: (from, to, artifact, fn, args = []) => d.send({ from, to, data: encode(abi(artifact), fn, args) }),
    read: async <T>(to: Address, artifact: string, fn: string, args: readonly unknown[] = []) =>
      (await d.client.readContract({ address: to, abi: abi(artifact), functionName: fn, args })) as T,
    async advance(seconds) {
      d.at(d.now + seconds);
      await d.mineEmpty(1);
    },
    stop: () => anvil.stop(),
  };
}

/** Resolves to the decoded revert reason of a transaction that must fail. */
export async function revertReason(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ScriptRevertError) return error.details.reason;
    throw error;
  }
  throw new Error("expected the transaction to revert, but it succeeded");
}
