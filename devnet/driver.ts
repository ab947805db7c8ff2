/**
 * Drives one anvil chain through a scripted history: every transaction is sent from an
 * impersonated account (the history needs no signatures except where a contract checks one),
 * each block gets the timestamp the script asks for, and a revert stops the script with the
 * decoded error instead of leaving a silently different chain.
 */
import {
  type Abi,
  type Address,
  createPublicClient,
  decodeErrorResult,
  encodeDeployData,
  encodeFunctionData,
  type Hex,
  http,
  type PublicClient,
} from "viem";
import * as abis from "../abis/index.js";

/** Gas limit of a transaction sent without one (only the gas used is paid). */
const SEND_GAS = 5_000_000n;

export type Tx = { from: Address; to?: Address; data?: Hex; value?: bigint; gas?: bigint };

export type Receipt = {
  transactionHash: Hex;
  blockNumber: bigint;
  status: "success" | "reverted";
  contractAddress: Address | null;
  logs: { address: Address; topics: Hex[]; data: Hex }[];
};

export class ScriptRevertError extends Error {
  override name = "ScriptRevertError";
  constructor(
    message: string,
    readonly details: { tx: Tx; reason: string },
  ) {
    super(message);
  }
}

const ALL_ERRORS = Object.values(abis).flatMap((abi) => (abi as Abi).filter((item) => item.type === "error")) as Abi;

/** Best-effort decoding of revert data against every devnet ABI. */
export function describeRevert(data: unknown): string {
  if (typeof data !== "string" || !data.startsWith("0x") || data.length < 10) return String(data);
  try {
    const decoded = decodeErrorResult({ abi: ALL_ERRORS, data: data as Hex });
    return `${decoded.errorName}(${(decoded.args ?? []).map(String).join(", ")})`;
  } catch {
    try {
      const decoded = decodeErrorResult({ data: data as Hex });
      return `${decoded.errorName}(${(decoded.args ?? []).map(String).join(", ")})`;
    } catch {
      return data;
    }
  }
}

type RpcError = { code: number; message: string; data?: unknown };

const MAX_TXS_PER_BLOCK = 250;

export class ChainDriver {
  readonly client: PublicClient;
  /** Timestamp the next mined block gets. */
  private cursor: number;
  private id = 0;

  constructor(
    readonly rpcUrl: string,
    startTimestamp: number,
    /** Seconds between consecutive blocks when the script does not jump ahead. */
    readonly blockTime = 2,
  ) {
    this.client = createPublicClient({ transport: http(rpcUrl, { batch: false }) }) as PublicClient;
    this.cursor = startTimestamp;
  }

  get now(): number {
    return this.cursor;
  }

  /** Moves the clock forward to `timestamp` (never backwards). */
  at(timestamp: number): this {
    this.cursor = Math.max(this.cursor, Math.floor(timestamp));
    return this;
  }

  async rpc<T = unknown>(method: string, params: unknown[] = []): Promise<T> {
    const [result] = await this.rpcBatch<T>([{ method, params }]);
    return result as T;
  }

  async rpcBatch<T = unknown>(calls: { method: string; params: unknown[] }[]): Promise<T[]> {
    if (calls.length === 0) return [];
    const body = calls.map((c) => ({ jsonrpc: "2.0", id: ++this.id, method: c.method, params: c.params }));
    const res = await fetch(this.rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const replies = (await res.json()) as { id: number; result?: T; error?: RpcError }[];
    const byId = new Map(replies.map((r) => [r.id, r]));
    return body.map((b, i) => {
      const reply = byId.get(b.id);
      if (!reply || reply.error) {
        const err = reply?.error;
        throw new ScriptRevertError(`${calls[i]!.method} failed: ${err?.message ?? "no reply"}`, {
          tx: (calls[i]!.params[0] ?? {}) as Tx,
          reason: err?.data === undefined ? (err?.message ?? "no reply") : describeRevert(err.data),
        });
      }
      return reply.result as T;
    });
  }

  private toRpcTx(tx: Tx) {
    return {
      from: tx.from,
      ...(tx.to ? { to: tx.to } : {}),
      ...(tx.data ? { data: tx.data } : {}),
      ...(tx.value ? { value: `0x${tx.value.toString(16)}` } : {}),
      ...(tx.gas ? { gas: `0x${tx.gas.toString(16)}` } : {}),
    };
  }

  /** Sends one transaction in its own block at the cursor, then advances the cursor. */
  async send(tx: Tx): Promise<Receipt> {
    await this.rpc("evm_setNextBlockTimestamp", [this.cursor]);
    let hash: Hex;
    try {
      // A fixed limit, not anvil's estimate: the estimate runs at the previous block's timestamp,
      // and a write of block.timestamp into a slot that already holds it is cheaper there than it
      // is one block later (the deployed vault v1 ran out of gas that way).
      hash = await this.rpc<Hex>("eth_sendTransaction", [this.toRpcTx({ gas: SEND_GAS, ...tx })]);
    } catch (error) {
      if (error instanceof ScriptRevertError) {
        throw new ScriptRevertError(`transaction reverted: ${error.details.reason}`, {
          tx,
          reason: error.details.reason,
        });
      }
      throw error;
    }
    this.cursor += this.blockTime;
    const receipt = await this.receipt(hash);
    if (receipt.status !== "success") {
      const reason = await this.explain(tx);
      throw new ScriptRevertError(`transaction ${hash} reverted: ${reason}`, { tx, reason });
    }
    return receipt;
  }

  /**
   * Mines `txs` in order, in as few blocks as the per-block cap allows, at the cursor (explicit
   * gas, no estimation, so a transaction may depend on an earlier one). Every one must succeed.
   */
  async sendBlock(txs: Tx[], gas = 400_000n): Promise<Receipt[]> {
    const receipts: Receipt[] = [];
    // anvil builds a block in time that grows faster than linearly with the pending pool
    // (measured: 500 txs 0.4 s, 2,000 txs 7.9 s); blocks of a few hundred keep it linear.
    for (let i = 0; i < txs.length; i += MAX_TXS_PER_BLOCK) {
      receipts.push(...(await this.mineOneBlock(txs.slice(i, i + MAX_TXS_PER_BLOCK), gas)));
    }
    return receipts;
  }

  private async mineOneBlock(txs: Tx[], gas: bigint): Promise<Receipt[]> {
    if (txs.length === 0) return [];
    // Explicit nonces: anvil serves a JSON-RPC batch concurrently, so two sends from one
    // sender would otherwise race for the same nonce.
    const senders = [...new Set(txs.map((tx) => tx.from.toLowerCase()))];
    const counts = await this.rpcBatch<Hex>(
      senders.map((s) => ({ method: "eth_getTransactionCount", params: [s, "pending"] })),
    );
    const nextNonce = new Map(senders.map((s, i) => [s, BigInt(counts[i]!)]));
    const withNonces = txs.map((tx) => {
      const key = tx.from.toLowerCase();
      const nonce = nextNonce.get(key)!;
      nextNonce.set(key, nonce + 1n);
      return { ...this.toRpcTx({ gas, ...tx }), nonce: `0x${nonce.toString(16)}` };
    });
    await this.rpc("evm_setAutomine", [false]);
    let hashes: Hex[];
    try {
      hashes = await this.rpcBatch<Hex>(withNonces.map((tx) => ({ method: "eth_sendTransaction", params: [tx] })));
      await this.rpc("evm_mine", [this.cursor]);
    } finally {
      await this.rpc("evm_setAutomine", [true]);
    }
    this.cursor += this.blockTime;
    const raw = await this.rpcBatch<any>(hashes.map((h) => ({ method: "eth_getTransactionReceipt", params: [h] })));
    const receipts = raw.map(normaliseReceipt);
    const failed = receipts.findIndex((r) => r.status !== "success");
    if (failed >= 0) {
      const tx = txs[failed]!;
      const reason = await this.explain(tx);
      throw new ScriptRevertError(`transaction ${failed} of the block reverted: ${reason}`, { tx, reason });
    }
    return receipts;
  }

  /** Replays a failed transaction as a call to get its revert reason. */
  private async explain(tx: Tx): Promise<string> {
    try {
      await this.rpc("eth_call", [this.toRpcTx(tx), "latest"]);
      return "reverted in block context only (depends on an earlier transaction of the block)";
    } catch (error) {
      return error instanceof ScriptRevertError ? error.details.reason : String(error);
    }
  }

  /** The receipt of `hash`; automine mines right after the send returns, so it may lag a moment. */
  async receipt(hash: Hex): Promise<Receipt> {
    for (let attempt = 0; attempt < 200; attempt++) {
      const raw = await this.rpc("eth_getTransactionReceipt", [hash]);
      if (raw) return normaliseReceipt(raw);
      await new Promise((r) => setTimeout(r, 5));
    }
    throw new ScriptRevertError(`no receipt for ${hash}`, { tx: {} as Tx, reason: "not mined" });
  }

  /** Mines `count` empty blocks, `blockTime` apart, starting at the cursor. */
  async mineEmpty(count: number): Promise<void> {
    for (let i = 0; i < count; i++) {
      await this.rpc("evm_mine", [this.cursor]);
      this.cursor += this.blockTime;
    }
  }

  async deploy(
    from: Address,
    abi: Abi,
    bytecode: Hex,
    args: readonly unknown[] = [],
  ): Promise<Receipt & { contractAddress: Address }> {
    const data = encodeDeployData({ abi, bytecode, args } as Parameters<typeof encodeDeployData>[0]);
    const receipt = await this.send({ from, data, gas: 8_000_000n });
    if (!receipt.contractAddress)
      throw new ScriptRevertError("deployment created no contract", { tx: { from }, reason: "no address" });
    return receipt as Receipt & { contractAddress: Address };
  }

  async write(
    from: Address,
    to: Address,
    abi: Abi,
    functionName: string,
    args: readonly unknown[] = [],
    value?: bigint,
  ) {
    return this.send({ from, to, data: encode(abi, functionName, args), value });
  }

  async setBalances(addresses: Address[], wei: bigint): Promise<void> {
    const hex = `0x${wei.toString(16)}`;
    for (let i = 0; i < addresses.length; i += 500) {
      await this.rpcBatch(addresses.slice(i, i + 500).map((a) => ({ method: "anvil_setBalance", params: [a, hex] })));
    }
  }

  async blockNumber(): Promise<bigint> {
    return BigInt(await this.rpc<Hex>("eth_blockNumber"));
  }
}

export function encode(abi: Abi, functionName: string, args: readonly unknown[] = []): Hex {
  return encodeFunctionData({ abi, functionName, args } as Parameters<typeof encodeFunctionData>[0]);
}

function normaliseReceipt(raw: any): Receipt {
  return {
    transactionHash: raw.transactionHash,
    blockNumber: BigInt(raw.blockNumber),
    status: raw.status === "0x1" ? "success" : "reverted",
    contractAddress: raw.contractAddress ?? null,
    logs: raw.logs.map((l: any) => ({ address: l.address, topics: l.topics, data: l.data })),
  };
}
