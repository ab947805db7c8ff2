/**
 * The proof check of a re-derivation: the header of the trusted block hash gives the state root,
 * and every recorded read is executed again in a local EVM (@ethereumjs/evm) whose every account,
 * code and storage slot is proven from eth_getProof against that root (proven-state.ts). What the
 * execution returns must be what eth_call answered: the same proves the read, another fails it
 * naming both values, and a state access that does not prove fails it naming the account, the
 * slot and why. No read is taken on the RPC's word.
 */
import type { Hex, PublicClient } from "viem";
import { accessListHint } from "./access-list-hint.js";
import { blockContext, chainRules, evmAt } from "./block-evm.js";
import { executeRead } from "./execute-read.js";
import { headerHash, type RpcHeader } from "./header.js";
import { ProvenState } from "./proven-state.js";
import type { ProofReport } from "./read-proof.js";
import { describeRead, type RecordedRead } from "./recorded-reads.js";

export type { ProofReport, ReadProof } from "./read-proof.js";

export type ProveOptions = {
  client: Pick<PublicClient, "request">;
  blockNumber: bigint;
  /** The chain whose rules the EVM runs (the network document's chain id). */
  chainId: number;
  anchor: ProofReport["anchor"];
  /** Ask eth_createAccessList which state the reads touch, to prove it in one round (default true). */
  accessListHint?: boolean;
};

/** The header whose hash is `anchor.blockHash`, or why the RPC's is not it. */
async function anchoredHeader(o: ProveOptions): Promise<RpcHeader | string> {
  let raw: RpcHeader | null;
  try {
    raw = (await o.client.request({
      method: "eth_getBlockByHash",
      params: [o.anchor.blockHash, false],
    } as never)) as RpcHeader | null;
  } catch (e) {
    return `eth_getBlockByHash ${o.anchor.blockHash} failed: ${(e as Error).message.split("\n")[0]}`;
  }
  if (!raw) return `no block with hash ${o.anchor.blockHash} on this RPC`;
  const computed = headerHash(raw);
  if (computed.toLowerCase() !== o.anchor.blockHash.toLowerCase() || BigInt(raw.number) !== o.blockNumber)
    return `the header the RPC gave for ${o.anchor.blockHash} hashes to ${computed} (number ${BigInt(raw.number)}): not that block's header`;
  return raw;
}

/** Proves `reads` at `blockNumber` against the header whose hash is `anchor.blockHash`. */
export async function proveReads(reads: readonly RecordedRead[], o: ProveOptions): Promise<ProofReport> {
  const header = await anchoredHeader(o);
  if (typeof header === "string")
    return {
      anchor: o.anchor,
      header: { ok: false, detail: header, stateRoot: null },
      reads: reads.map((r) => ({ read: describeRead(r), status: "failed", detail: header })),
      ok: false,
    };
  const state = new ProvenState(o.client, header.stateRoot, o.blockNumber);
  if (o.accessListHint !== false) state.prefetch(await accessListHint(o.client, reads, o.blockNumber));
  const common = chainRules(o.chainId);
  const ctx = { state, header, block: blockContext(header), evm: () => evmAt(state, header, common) };
  const results = await Promise.all(reads.map((r) => executeRead(r, ctx)));
  return {
    anchor: o.anchor,
    header: {
      ok: true,
      detail: `the header of block ${o.blockNumber} hashes to ${o.anchor.blockHash}`,
      stateRoot: header.stateRoot as Hex,
    },
    reads: results,
    state: state.counts,
    ok: results.every((r) => r.status !== "failed"),
  };
}
