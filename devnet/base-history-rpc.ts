/**
 * Method by method, how the Base history simulator answers a JSON-RPC call: block numbers in
 * requests are real Base heights and become anvil block numbers on the way up; anvil numbers in
 * answers become real heights on the way back. Gap heights are answered here without anvil.
 */
import type { Address, Hex } from "viem";
import { gapHeight, type HeightMap, type RpcBlock, type Slot } from "./base-history-map.js";

export type RpcError = { code: number; message: string; data?: unknown };
export type Answer = { result: unknown } | { error: RpcError };
export type Upstream = (method: string, params: unknown[]) => Promise<Answer>;
export type Creation = { anvilTx: Hex; contractAddress: Address };

export type Translator = {
  map: HeightMap;
  upstream: Upstream;
  /** Real creation transaction hash (lower case) → the anvil transaction standing in for it. */
  creations: Map<string, Creation>;
  /** Brings the map up to date with anvil. */
  sync(): Promise<void>;
};

/** A request the simulator can tell is wrong without asking anvil (JSON-RPC invalid params). */
export class ParamError extends Error {}

const ok = (result: unknown): Answer => ({ result });
const fail = (code: number, message: string): Answer => ({ error: { code, message } });
const hex = (n: bigint): Hex => `0x${n.toString(16)}`;

// Position of the block parameter of each method that reads state at a block.
const STATE_PARAM: Record<string, number> = {
  eth_call: 1,
  eth_getBalance: 1,
  eth_getCode: 1,
  eth_getStorageAt: 2,
  eth_getTransactionCount: 1,
  eth_estimateGas: 1,
  eth_createAccessList: 1,
  eth_getProof: 2,
  eth_feeHistory: 1,
  debug_traceCall: 1,
};
// Methods whose answers carry anvil block numbers but whose requests name no block.
const REWRITE_ONLY = new Set(["trace_transaction", "eth_getFilterChanges", "eth_getFilterLogs"]);
const BY_BLOCK = new Set([
  "eth_blockNumber",
  "eth_getBlockByNumber",
  "eth_getBlockByHash",
  "eth_getLogs",
  "eth_getBlockReceipts",
  "eth_getBlockTransactionCountByNumber",
  "eth_getBlockTransactionCountByHash",
  "eth_getUncleCountByBlockNumber",
  "eth_getUncleCountByBlockHash",
  "eth_getTransactionByBlockNumberAndIndex",
  "eth_getTransactionByBlockHashAndIndex",
  "eth_getTransactionByHash",
  "eth_getTransactionReceipt",
  "debug_traceBlockByNumber",
  "debug_traceBlockByHash",
  "trace_block",
]);

/** Methods answered against the height map (the map must be fresh first); the rest pass through. */
export function isMapped(method: string): boolean {
  return BY_BLOCK.has(method) || REWRITE_ONLY.has(method) || method in STATE_PARAM;
}

type Ref = { tag: string } | { height: bigint } | { hash: Hex };
type Form = "plain" | { object: Record<string, unknown> };

const TAGS = new Set(["latest", "pending", "safe", "finalized", "earliest"]);
const QUANTITY = /^0x[0-9a-fA-F]{1,16}$/;
const HASH = /^0x[0-9a-fA-F]{64}$/;

/** A block parameter: quantity, tag, 32-byte hash, or EIP-1898 `{blockNumber}` / `{blockHash}`. */
function parseRef(param: unknown): { ref: Ref; form: Form } {
  if (typeof param === "string") {
    if (TAGS.has(param)) return { ref: { tag: param }, form: "plain" };
    if (HASH.test(param)) return { ref: { hash: param as Hex }, form: "plain" };
    if (QUANTITY.test(param)) return { ref: { height: BigInt(param) }, form: "plain" };
  } else if (typeof param === "object" && param !== null) {
    const o = param as Record<string, unknown>;
    if (typeof o.blockHash === "string" && HASH.test(o.blockHash))
      return { ref: { hash: o.blockHash as Hex }, form: { object: o } };
    if (o.blockNumber !== undefined) {
      const inner = parseRef(o.blockNumber);
      if (!("hash" in inner.ref)) return { ref: inner.ref, form: { object: o } };
    }
  }
  throw new ParamError(`invalid block parameter ${JSON.stringify(param)}`);
}

/** The real height a tag or number stands for (hashes are not heights). */
function heightOfRef(map: HeightMap, ref: Ref): bigint {
  if ("height" in ref) return ref.height;
  if ("tag" in ref) return ref.tag === "earliest" ? 0n : map.head;
  throw new ParamError("a block hash is not allowed here");
}

async function anvilByHash(t: Translator, hash: string): Promise<RpcBlock | undefined> {
  const known = t.map.anvilBlockByHash(hash);
  if (known) return known;
  await t.sync(); // mined since this request's sync?
  return t.map.anvilBlockByHash(hash);
}

/** What stands at the block a parameter names, or null when nothing does. */
async function slotOf(t: Translator, param: unknown): Promise<Slot | null> {
  const { ref } = parseRef(param);
  if (!("hash" in ref)) return t.map.slot(heightOfRef(t.map, ref));
  const h = gapHeight(ref.hash);
  if (h !== null) return t.map.slot(h);
  const block = await anvilByHash(t, ref.hash);
  return block ? { kind: "anvil", block } : null;
}

class HeaderNotFound extends Error {}

/** The block parameter anvil needs to read the state the named real height has. */
function stateParam(map: HeightMap, param: unknown): unknown {
  const { ref, form } = parseRef(param);
  let out: unknown;
  if ("tag" in ref) {
    if (ref.tag === "latest" || ref.tag === "pending") return param; // same meaning on anvil
    out = ref.tag === "earliest" ? map.first!.number : map.latest!.number;
  } else {
    const h = "height" in ref ? ref.height : gapHeight(ref.hash);
    if (h === null) return param; // an anvil hash: anvil knows it
    if (h > map.head) throw new HeaderNotFound();
    const b = map.stateBlock(h);
    out = "hash" in ref ? b.hash : b.number;
  }
  if (form === "plain") return out;
  const { blockNumber: _n, blockHash: _h, ...rest } = form.object;
  return "hash" in ref ? { ...rest, blockHash: out } : { ...rest, blockNumber: out };
}

/** Anvil block numbers in an answer (every `blockNumber` field, any depth) become real heights. */
async function toReal(t: Translator, value: unknown): Promise<unknown> {
  let highest = -1n;
  walk(value, (n) => {
    if (n > highest) highest = n;
    return n;
  });
  const latest = t.map.latest;
  if (latest && highest > BigInt(latest.number)) await t.sync();
  return walk(value, (n) => t.map.heightOfAnvil(n) ?? n);
}

function walk(value: unknown, f: (anvilNumber: bigint) => bigint): unknown {
  if (Array.isArray(value)) return value.map((v) => walk(v, f));
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === "blockNumber" && typeof v === "string" && QUANTITY.test(v)) out[k] = hex(f(BigInt(v)));
    else if (k === "blockNumber" && typeof v === "number")
      out[k] = Number(f(BigInt(v))); // parity traces
    else out[k] = walk(v, f);
  }
  return out;
}

async function forwardReal(t: Translator, method: string, params: unknown[]): Promise<Answer> {
  const a = await t.upstream(method, params);
  return "error" in a ? a : ok(await toReal(t, a.result));
}

async function block(t: Translator, slot: Slot | null, full: unknown): Promise<Answer> {
  if (slot === null) return ok(null);
  if (slot.kind === "gap") return ok(t.map.gapBlock(slot.height));
  if (full !== true) return ok(t.map.realBlock(slot.block)); // the map holds it without bodies
  const a = await t.upstream("eth_getBlockByHash", [slot.block.hash, true]);
  if ("error" in a || a.result === null) return a;
  return ok(t.map.realBlock(a.result as RpcBlock));
}

async function logs(t: Translator, filter: unknown): Promise<Answer> {
  if (typeof filter !== "object" || filter === null) throw new ParamError("eth_getLogs takes a filter object");
  const f = filter as Record<string, unknown>;
  if (f.blockHash !== undefined) {
    const h = gapHeight(f.blockHash);
    if (h === null) return forwardReal(t, "eth_getLogs", [f]);
    return h <= t.map.head ? ok([]) : fail(-32000, "unknown block");
  }
  const from = heightOfRef(t.map, parseRef(f.fromBlock ?? "latest").ref);
  const to = heightOfRef(t.map, parseRef(f.toBlock ?? "latest").ref);
  if (from > to) return fail(-32602, "invalid block range params: fromBlock is after toBlock");
  // Found by binary search over anvil's blocks: a range of millions of heights costs nothing.
  const range = t.map.anvilRange(from, to < t.map.head ? to : t.map.head);
  if (range === null) return ok([]);
  return forwardReal(t, "eth_getLogs", [{ ...f, fromBlock: hex(range[0]), toBlock: hex(range[1]) }]);
}

async function aliased(t: Translator, method: string, realTx: string, c: Creation): Promise<Answer> {
  const a = await forwardReal(t, method, [c.anvilTx]);
  if ("error" in a || a.result === null) return a;
  const r = a.result as Record<string, unknown>;
  if (method === "eth_getTransactionByHash") return ok({ ...r, hash: realTx });
  const logs = Array.isArray(r.logs) ? r.logs.map((l) => ({ ...(l as object), transactionHash: realTx })) : r.logs;
  return ok({ ...r, transactionHash: realTx, contractAddress: c.contractAddress, logs });
}

/** One call's answer. Throws ParamError for a malformed call; anvil's errors come back as errors. */
export async function answer(t: Translator, method: string, params: unknown[]): Promise<Answer> {
  const { map } = t;
  const stateIdx = STATE_PARAM[method];
  if (stateIdx !== undefined) {
    const up = [...params];
    if (up[stateIdx] !== undefined) {
      try {
        up[stateIdx] = stateParam(map, up[stateIdx]);
      } catch (e) {
        if (e instanceof HeaderNotFound) return fail(-32000, "header not found");
        throw e;
      }
    }
    const a = await t.upstream(method, up);
    if (method !== "eth_feeHistory" || "error" in a) return a;
    const r = a.result as { oldestBlock?: Hex };
    const oldest = r?.oldestBlock === undefined ? undefined : map.heightOfAnvil(BigInt(r.oldestBlock));
    return ok(oldest === undefined ? r : { ...r, oldestBlock: hex(oldest) });
  }
  if (REWRITE_ONLY.has(method)) return forwardReal(t, method, params);

  switch (method) {
    case "eth_blockNumber":
      return ok(hex(map.head));
    case "eth_getBlockByNumber":
    case "eth_getBlockByHash":
      if (method === "eth_getBlockByHash" && !(typeof params[0] === "string" && HASH.test(params[0])))
        throw new ParamError("eth_getBlockByHash takes a 32-byte hash");
      return block(t, await slotOf(t, params[0]), params[1]);
    case "eth_getLogs":
      return logs(t, params[0]);
    case "eth_getTransactionByHash":
    case "eth_getTransactionReceipt": {
      const c = typeof params[0] === "string" ? t.creations.get(params[0].toLowerCase()) : undefined;
      return c ? aliased(t, method, params[0] as string, c) : forwardReal(t, method, params);
    }
  }

  // The rest name one block: gaps are empty, anvil blocks are asked for by their own number.
  const slot = await slotOf(t, params[0]);
  const gap = slot?.kind === "gap";
  const anvil = slot?.kind === "anvil" ? slot.block : undefined;
  switch (method) {
    case "eth_getBlockTransactionCountByNumber":
    case "eth_getBlockTransactionCountByHash":
      return ok(
        slot === null ? null : hex(BigInt(anvil && Array.isArray(anvil.transactions) ? anvil.transactions.length : 0)),
      );
    case "eth_getUncleCountByBlockNumber":
    case "eth_getUncleCountByBlockHash":
      return ok(slot === null ? null : "0x0");
    case "eth_getTransactionByBlockNumberAndIndex":
    case "eth_getTransactionByBlockHashAndIndex":
      if (!anvil) return ok(null);
      return forwardReal(t, "eth_getTransactionByBlockHashAndIndex", [anvil.hash, params[1]]);
    case "eth_getBlockReceipts":
      if (!anvil) return ok(gap ? [] : null);
      return forwardReal(t, method, [anvil.number]);
    case "debug_traceBlockByNumber":
    case "debug_traceBlockByHash":
    case "trace_block":
      if (!anvil) return gap ? ok([]) : fail(-32000, "block not found");
      return forwardReal(t, method, [
        method === "debug_traceBlockByHash" ? anvil.hash : anvil.number,
        ...params.slice(1),
      ]);
  }
  throw new Error(`unhandled method ${method}`); // BY_BLOCK and the switches disagree
}
