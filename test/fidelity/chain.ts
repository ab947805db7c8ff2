/**
 * The one anvil both sides run on. Automine is off: each scenario call of side A (reference) and
 * side B (devnet) is sent into the same block, so both see the same number and timestamp and
 * time-dependent code (vesting, cooldowns, oracle staleness) cannot drift between them.
 * Actors are impersonated accounts: no keys, the same EOAs on both sides.
 */
import type { Address, Hex } from "viem";
import { type AnvilHandle, startAnvil } from "../../devnet/anvil.js";
import { freePort } from "../helpers/ports.js";

/** Generous and fixed, so a reverting call is mined (and traced) instead of failing estimation. */
const CALL_GAS = 25_000_000n;
const DEPLOY_GAS = 30_000_000n;

export type Receipt = {
  status: "0x1" | "0x0";
  blockNumber: Hex;
  contractAddress: Address | null;
  logs: { address: Address; topics: Hex[]; data: Hex }[];
};

export type CallResult = { ok: true; data: Hex } | { ok: false; data: Hex };

export class RpcError extends Error {
  constructor(
    message: string,
    readonly data: Hex | undefined,
  ) {
    super(message);
  }
}

export class Chain {
  private id = 0;
  constructor(readonly rpcUrl: string) {}

  async rpc<T>(method: string, params: unknown[] = []): Promise<T> {
    const res = await fetch(this.rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: ++this.id, method, params }),
      signal: AbortSignal.timeout(60_000),
    });
    const body = (await res.json()) as { result?: T; error?: { message: string; data?: unknown } };
    if (body.error) {
      const data =
        typeof body.error.data === "string" && body.error.data.startsWith("0x") ? (body.error.data as Hex) : undefined;
      throw new RpcError(`${method}: ${body.error.message}`, data);
    }
    return body.result as T;
  }

  async fund(account: Address): Promise<void> {
    await this.rpc("anvil_impersonateAccount", [account]);
    await this.rpc("anvil_setBalance", [account, `0x${(10n ** 30n).toString(16)}`]);
  }

  send(tx: { from: Address; to?: Address; data: Hex; value?: bigint }): Promise<Hex> {
    return this.rpc<Hex>("eth_sendTransaction", [
      {
        from: tx.from,
        ...(tx.to ? { to: tx.to } : {}),
        data: tx.data,
        value: `0x${(tx.value ?? 0n).toString(16)}`,
        gas: `0x${(tx.to ? CALL_GAS : DEPLOY_GAS).toString(16)}`,
      },
    ]);
  }

  async mine(): Promise<void> {
    await this.rpc("evm_mine", []);
  }

  async increaseTime(seconds: number): Promise<void> {
    await this.rpc("evm_increaseTime", [seconds]);
    await this.mine();
  }

  async receipt(hash: Hex): Promise<Receipt> {
    const r = await this.rpc<Receipt | null>("eth_getTransactionReceipt", [hash]);
    if (!r) throw new Error(`transaction ${hash} was not mined`);
    return r;
  }

  /** The revert data of a mined, failed transaction (empty when it reverted without data). */
  async revertData(hash: Hex): Promise<Hex> {
    const trace = await this.rpc<{ output?: Hex }>("debug_traceTransaction", [hash, { tracer: "callTracer" }]);
    return trace.output ?? "0x";
  }

  async call(tx: { from?: Address; to: Address; data: Hex }, block: bigint | "latest"): Promise<CallResult> {
    const tag = block === "latest" ? block : `0x${block.toString(16)}`;
    try {
      return { ok: true, data: await this.rpc<Hex>("eth_call", [tx, tag]) };
    } catch (e) {
      if (e instanceof RpcError) return { ok: false, data: e.data ?? "0x" };
      throw e;
    }
  }

  async blockNumber(): Promise<bigint> {
    return BigInt(await this.rpc<Hex>("eth_blockNumber"));
  }
}

export async function startFidelityChain(): Promise<{ chain: Chain; anvil: AnvilHandle }> {
  const anvil = await startAnvil({
    port: await freePort(),
    chainId: 31337,
    timestamp: Math.floor(Date.now() / 1000) - 86_400 * 60,
  });
  const chain = new Chain(anvil.rpcUrl);
  await chain.rpc("evm_setAutomine", [false]);
  return { chain, anvil };
}
