/**
 * A node some blocks behind the chain, as a load-balanced provider answers while one of its
 * backends lags: the head it names is older, a block above it is not found, and a read or a log
 * range above it fails the way geth fails it. The proxy (rpc-proxy.ts) answers through this while
 * a lag is set; nothing here holds state.
 */

/** `blocks` behind the upstream head; with `everyOtherMs`, only in every other such period (starting lagged). */
export type RpcLag = { blocks: number; everyOtherMs?: number };

type Call = { jsonrpc?: string; id?: unknown; method?: unknown; params?: unknown };
/** One call sent upstream: its result, or a throw with the upstream's error. */
export type AskUpstream = (method: string, params: unknown[]) => Promise<unknown>;

/** Where the block tag sits in a state read's params. */
const BLOCK_PARAM: Record<string, number> = {
  eth_call: 1,
  eth_estimateGas: 1,
  eth_getBalance: 1,
  eth_getCode: 1,
  eth_getTransactionCount: 1,
  eth_getStorageAt: 2,
  eth_getProof: 2,
};
const TAGS_AT_HEAD = new Set(["latest", "pending"]);

/** Geth's answer to a read above its head (code -32000). */
class BehindHead extends Error {}

const hex = (n: bigint) => `0x${n.toString(16)}`;
const numberOf = (block: unknown) =>
  typeof block === "object" && block !== null && typeof (block as { number?: unknown }).number === "string"
    ? BigInt((block as { number: string }).number)
    : null;

/** Whether the lag applies now (`since` is when it was set). */
export function lagIsOn(lag: RpcLag, since: number, now: number): boolean {
  if (!lag.everyOtherMs) return true;
  return Math.floor((now - since) / lag.everyOtherMs) % 2 === 0;
}

/** A block tag as this node reads it: its own head for latest/pending; a number above its head is not found. */
function resolveTag(tag: unknown, head: bigint): unknown {
  if (typeof tag === "string" && TAGS_AT_HEAD.has(tag)) return hex(head);
  if (typeof tag === "string" && tag.startsWith("0x") && BigInt(tag) > head) throw new BehindHead("header not found");
  return tag; // safe, finalized, earliest, a block hash object: as upstream has them
}

async function result(call: Call, head: bigint, ask: AskUpstream): Promise<unknown> {
  const method = String(call.method);
  const params = Array.isArray(call.params) ? [...call.params] : [];
  if (method === "eth_blockNumber") return hex(head);
  if (method === "eth_getBlockByNumber" || method === "eth_getBlockReceipts") {
    try {
      params[0] = resolveTag(params[0], head);
    } catch {
      return null; // a block this node has not seen is not found
    }
    return ask(method, params);
  }
  if (method === "eth_getBlockByHash") {
    const block = await ask(method, params);
    const n = numberOf(block);
    return n !== null && n > head ? null : block;
  }
  if (method === "eth_getTransactionReceipt" || method === "eth_getTransactionByHash") {
    const found = (await ask(method, params)) as { blockNumber?: string } | null;
    return found?.blockNumber && BigInt(found.blockNumber) > head ? null : found;
  }
  if (method === "eth_getLogs") {
    const filter = { ...(params[0] as Record<string, unknown>) };
    if (typeof filter.blockHash === "string") {
      const n = numberOf(await ask("eth_getBlockByHash", [filter.blockHash, false]));
      if (n === null || n > head) throw new BehindHead("unknown block");
    } else {
      const from = resolveTag(filter.fromBlock ?? "latest", head);
      const to = resolveTag(filter.toBlock ?? "latest", head);
      Object.assign(filter, { fromBlock: from, toBlock: to });
    }
    return ask(method, [filter, ...params.slice(1)]);
  }
  const at = BLOCK_PARAM[method];
  if (at !== undefined) {
    params[at] = resolveTag(params[at] ?? "latest", head);
    return ask(method, params);
  }
  return ask(method, params);
}

/** The answer of a node `head` high to one call: upstream's where it has the block, geth's error where not. */
export async function answerBehind(call: Call, head: bigint, ask: AskUpstream): Promise<object> {
  const id = call.id ?? null;
  try {
    return { jsonrpc: "2.0", id, result: await result(call, head, ask) };
  } catch (e) {
    if (e instanceof BehindHead) return { jsonrpc: "2.0", id, error: { code: -32000, message: e.message } };
    const error = (e as { rpcError?: unknown }).rpcError ?? { code: -32603, message: (e as Error).message };
    return { jsonrpc: "2.0", id, error };
  }
}
