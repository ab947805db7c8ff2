/**
 * The Base history simulator: a JSON-RPC proxy in front of a short anvil chain that presents it
 * at real Base mainnet heights. anvil can start at any height but cannot mine millions of
 * blocks, so each anvil block carries a real-looking Base timestamp, sits at the height that
 * timestamp has on Base, and the empty blocks in between are synthesised (base-history-map.ts;
 * per-method rules in base-history-rpc.ts). Indexing Base mainnet can then be rehearsed with the
 * real start blocks, and Ponder, viem and cast all see one consistent chain.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Address, Hex } from "viem";
import { BASE_GENESIS_TIMESTAMP, HeightMap, type RpcBlock } from "./base-history-map.js";
import { type Answer, answer, type Creation, isMapped, ParamError, type Translator } from "./base-history-rpc.js";

export { BASE_GENESIS_TIMESTAMP };

export type BaseHistoryOptions = {
  /** anvil's JSON-RPC URL. */
  upstream: string;
  /** 0 or absent: a free port. */
  port?: number;
  host?: string;
  genesisTimestamp?: number;
  /** Seconds per block on the simulated chain (Base: 2). */
  blockTime?: number;
  /** Real creation transactions of contracts placed with anvil_setCode → anvil stand-ins. */
  creations?: Record<Hex, { anvilTx: Hex; contractAddress: Address }>;
};

export type BaseHistory = {
  url: string;
  /** The real height anvil block `anvilBlock` stands at. */
  heightOf(anvilBlock: bigint): Promise<bigint>;
  addCreation(realTx: Hex, c: { anvilTx: Hex; contractAddress: Address }): void;
  /** JSON-RPC calls received (each element of a batch counts). */
  stats(): { requests: number };
  stop(): Promise<void>;
};

/** anvil's chain changed between two reads of one refresh (a revert or reorg racing it). */
class Reorganised extends Error {
  override message = "anvil reorganised during sync";
}

type Call = { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown };

const reply = (id: unknown, a: Answer) => ({ jsonrpc: "2.0", id: id ?? null, ...a });
const rpcError = (id: unknown, code: number, message: string) => reply(id, { error: { code, message } });

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}

export async function startBaseHistory(o: BaseHistoryOptions): Promise<BaseHistory> {
  const map = new HeightMap(o.genesisTimestamp ?? BASE_GENESIS_TIMESTAMP, o.blockTime ?? 2);
  const creations = new Map<string, Creation>();
  const addCreation = (realTx: Hex, c: Creation) => creations.set(realTx.toLowerCase(), { ...c });
  for (const [tx, c] of Object.entries(o.creations ?? {})) addCreation(tx as Hex, c);
  // In-flight upstream requests, aborted by stop(). One controller each: undici keeps an abort
  // listener on the signal a request is given until that request is collected, and raises the
  // signal's limit to 1,500 whatever was set, so one shared signal warned thousands of times a run.
  const upstreamRequests = new Set<AbortController>();
  let requests = 0;
  let nextId = 0;

  // anvil answers one request at a time per connection and slows to a crawl under thousands of
  // concurrent ones (an indexer with many provider slots sends that many): queue beyond a few.
  const MAX_IN_FLIGHT = 16;
  let inFlight = 0;
  const waiting: (() => void)[] = [];
  async function post(body: unknown): Promise<unknown> {
    if (inFlight >= MAX_IN_FLIGHT) await new Promise<void>((resolve) => waiting.push(resolve));
    inFlight++;
    try {
      return await postNow(body);
    } finally {
      inFlight--;
      waiting.shift()?.();
    }
  }

  async function postNow(body: unknown): Promise<unknown> {
    const aborter = new AbortController();
    upstreamRequests.add(aborter);
    try {
      const res = await fetch(o.upstream, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
        signal: aborter.signal,
      });
      const text = await res.text();
      try {
        return JSON.parse(text);
      } catch {
        throw new Error(`upstream answered HTTP ${res.status}: ${text.slice(0, 200)}`);
      }
    } finally {
      upstreamRequests.delete(aborter);
    }
  }

  const upstream = async (method: string, params: unknown[]): Promise<Answer> => {
    try {
      const a = (await post({ jsonrpc: "2.0", id: ++nextId, method, params })) as Answer;
      return "error" in a && a.error ? { error: a.error } : { result: (a as { result?: unknown }).result ?? null };
    } catch (e) {
      return { error: { code: -32603, message: `upstream request failed: ${(e as Error).message}` } };
    }
  };

  async function blocks(numbers: bigint[]): Promise<(RpcBlock | null)[]> {
    const calls = numbers.map((n) => ({
      jsonrpc: "2.0",
      id: ++nextId,
      method: "eth_getBlockByNumber",
      params: [`0x${n.toString(16)}`, false],
    }));
    const answers = (await post(calls)) as { id: number; result?: RpcBlock | null; error?: { message: string } }[];
    const byId = new Map(answers.map((a) => [a.id, a]));
    return calls.map((c) => {
      const a = byId.get(c.id);
      if (!a || a.error) throw new Error(`eth_getBlockByNumber failed: ${a?.error?.message ?? "no answer"}`);
      return a.result ?? null;
    });
  }

  /**
   * Reads anvil's newest block and, walking parent hashes back until they meet a block the map
   * already holds (or anvil's first block), everything new. One upstream call when nothing moved.
   */
  async function refresh(): Promise<void> {
    const top = await upstream("eth_getBlockByNumber", ["latest", false]);
    if ("error" in top || !top.result) throw new Error(`upstream has no latest block: ${JSON.stringify(top)}`);
    const fresh = [top.result as RpcBlock];
    // Not merely "known": after evm_revert the newest block is an older one the map still holds.
    if (map.latest?.hash === fresh[0]!.hash) return;
    for (;;) {
      const oldest = fresh[0]!;
      const n = BigInt(oldest.number);
      if (n === 0n || map.anvilBlock(n - 1n)?.hash === oldest.parentHash) break;
      // Ask for all blocks newer than the map in one batch (at most 200), or a few on a reorg.
      const held = map.latest ? BigInt(map.latest.number) : -1n;
      const want = n - 1n - held < 8n ? 8n : n - 1n - held > 200n ? 200n : n - 1n - held;
      const lo = n - want < 0n ? 0n : n - want;
      const got = await blocks(Array.from({ length: Number(n - lo) }, (_, i) => lo + BigInt(i)));
      let done = false;
      for (let i = got.length - 1; i >= 0 && !done; i--) {
        const parent = got[i];
        if (!parent)
          done = true; // below anvil's first block (`anvil --number`)
        else {
          if (parent.hash !== fresh[0]!.parentHash) throw new Reorganised();
          fresh.unshift(parent);
          done = map.anvilBlock(BigInt(parent.number) - 1n)?.hash === parent.parentHash;
        }
      }
      if (done) break;
    }
    map.update(fresh);
  }

  async function refreshSettled(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await refresh();
      } catch (e) {
        if (!(e instanceof Reorganised) || attempt === 3) throw e;
      }
    }
  }

  // Refreshes never overlap, and a caller never joins one that started before it asked: anvil
  // may have mined in between, and answers must not be staler than the request.
  let running: Promise<void> | null = null;
  let queued: Promise<void> | null = null;
  function sync(): Promise<void> {
    if (!running) {
      running = refreshSettled().finally(() => (running = null));
      return running;
    }
    queued ??= running
      .catch(() => undefined)
      .then(() => {
        queued = null;
        return sync();
      });
    return queued;
  }

  const translator: Translator = { map, upstream, creations, sync };

  async function one(call: Call, synced: Error | null): Promise<unknown> {
    requests++;
    if (typeof call !== "object" || call === null || Array.isArray(call) || typeof call.method !== "string")
      return rpcError(call?.id, -32600, "invalid request");
    const params = call.params ?? [];
    if (!Array.isArray(params)) return rpcError(call.id, -32602, "params must be an array");
    if (!isMapped(call.method)) return reply(call.id, await upstream(call.method, params));
    if (synced) return rpcError(call.id, -32603, `cannot read the anvil chain: ${synced.message}`);
    try {
      return reply(call.id, await answer(translator, call.method, params));
    } catch (e) {
      const code = e instanceof ParamError ? -32602 : -32603;
      return rpcError(call.id, code, (e as Error).message);
    }
  }

  async function handleRpc(raw: string): Promise<unknown> {
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      requests++;
      return rpcError(null, -32700, "parse error");
    }
    const calls = (Array.isArray(parsed) ? parsed : [parsed]) as Call[];
    if (calls.length === 0) return rpcError(null, -32600, "invalid request: empty batch");
    // One refresh serves the whole batch, so its answers agree on one chain.
    const mapped = calls.some(
      (c) => typeof c === "object" && c !== null && typeof c.method === "string" && isMapped(c.method),
    );
    const synced = mapped
      ? await sync().then(
          () => null,
          (e: Error) => e,
        )
      : null;
    const answers = await Promise.all(calls.map((c) => one(c, synced)));
    return Array.isArray(parsed) ? answers : answers[0];
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const path = (req.url ?? "/").split("?")[0];
    const raw = await readBody(req); // read even when refused, so the connection stays usable
    if (path !== "/" || req.method !== "POST") return sendJson(res, 404, { error: `no route ${req.method} ${path}` });
    sendJson(res, 200, await handleRpc(raw));
  }

  await sync(); // fails here, not on the first request, when anvil is not there
  const server = createServer((req, res) => {
    handle(req, res).catch((e: Error) => {
      if (!res.headersSent) sendJson(res, 500, rpcError(null, -32603, `proxy error: ${e.message}`));
      else res.destroy();
    });
  });
  const host = o.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(o.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as { port: number };

  return {
    url: `http://${host}:${port}`,
    async heightOf(anvilBlock) {
      await sync();
      const h = map.heightOfAnvil(anvilBlock);
      if (h === undefined) throw new Error(`anvil has no block ${anvilBlock}`);
      return h;
    },
    addCreation,
    stats: () => ({ requests }),
    stop: () =>
      new Promise<void>((resolve) => {
        for (const request of upstreamRequests) request.abort();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
