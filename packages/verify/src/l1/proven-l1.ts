/**
 * Ethereum's state at one trusted block, as a reader who trusts only Ethereum sees it: the header
 * whose hash the reader trusts (the L1 RPC's latest block, or the hash they pass), and calls to
 * Base's proof contracts executed in a local EVM over accounts, code and slots proven with
 * eth_getProof against that header's state root. The L1 RPC is asked for proofs and headers; what
 * it answers counts only where it hashes up to the trusted header.
 */
import { type Abi, type Address, decodeFunctionResult, encodeFunctionData, type Hex, type PublicClient } from "viem";
import { blockContext, chainRules, evmAt } from "../proofs/block-evm.js";
import { type ExecutionContext, executeCall } from "../proofs/execute-read.js";
import { headerHash, type RpcHeader } from "../proofs/header.js";
import { ProvenState } from "../proofs/proven-state.js";

/** The trusted L1 block: its number, hash and time. */
export type L1Block = { number: bigint; hash: Hex; timestamp: bigint };

/** Ethereum could not be read at the trusted block: a header, a proof or an execution refused. */
export class L1ReadError extends Error {
  override name = "L1ReadError";
  /** unreachable: the RPC did not answer (nothing judged); refused: it answered something that does not prove. */
  constructor(
    message: string,
    readonly kind: "unreachable" | "refused" = "refused",
  ) {
    super(message);
  }
}

type Client = Pick<PublicClient, "request">;

/** The L1 header the reader trusts: by the hash they gave, or the RPC's latest block (hash computed, not taken). */
export async function trustedL1Header(client: Client, blockHash: Hex | null): Promise<RpcHeader> {
  let raw: RpcHeader | null;
  try {
    raw = (await client.request(
      blockHash
        ? ({ method: "eth_getBlockByHash", params: [blockHash, false] } as never)
        : ({ method: "eth_getBlockByNumber", params: ["latest", false] } as never),
    )) as RpcHeader | null;
  } catch (e) {
    throw new L1ReadError(
      `the L1 RPC gave no header${blockHash ? ` for ${blockHash}` : ""}: ${(e as Error).message.split("\n")[0]}`,
      "unreachable",
    );
  }
  if (!raw) throw new L1ReadError(`the L1 RPC has no block ${blockHash ?? "latest"}`);
  const computed = headerHash(raw);
  if (blockHash && computed.toLowerCase() !== blockHash.toLowerCase())
    throw new L1ReadError(`the header the L1 RPC gave for ${blockHash} hashes to ${computed}: not that block's header`);
  return { ...raw, hash: computed };
}

export class ProvenL1 {
  readonly block: L1Block;
  private readonly ctx: ExecutionContext;

  constructor(client: Client, header: RpcHeader, chainId: number) {
    this.block = { number: BigInt(header.number), hash: header.hash, timestamp: BigInt(header.timestamp) };
    const state = new ProvenState(client, header.stateRoot, this.block.number);
    const common = chainRules(chainId);
    this.ctx = { state, header, block: blockContext(header), evm: () => evmAt(state, header, common) };
  }

  /** What the eth_getProof calls proved so far. */
  get counts() {
    return this.ctx.state.counts;
  }

  /** `functionName(args)` of `to`, executed over proven state at the trusted block. */
  async call(to: Address, abi: Abi, functionName: string, args: readonly unknown[] = []): Promise<unknown> {
    const data = encodeFunctionData({ abi, functionName, args } as never);
    let ran: Awaited<ReturnType<typeof executeCall>>;
    try {
      ran = await executeCall(this.ctx, to, data);
    } catch (e) {
      throw new L1ReadError(
        `${functionName} of ${to} at L1 block ${this.block.number}: ${(e as Error).message.split("\n")[0]}`,
      );
    }
    if (ran.reverted)
      throw new L1ReadError(`${functionName} of ${to} reverts at L1 block ${this.block.number} (${ran.reverted})`);
    if (ran.returned === "0x")
      throw new L1ReadError(
        `${functionName} of ${to} returns no data at L1 block ${this.block.number}: no such contract there`,
      );
    return decodeFunctionResult({ abi, functionName, data: ran.returned });
  }
}
