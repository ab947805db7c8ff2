/**
 * A JSON-RPC fault-injection proxy for tests. The service's live chain reads (e.g. kUSD
 * `hasRole`) go through it while the indexer keeps talking to anvil directly, so a test can make
 * exactly those reads fail (error, HTTP 500 or no answer) and check that the service reports the
 * value as unknown instead of guessing. Faults are set in-process (`setFaults`) or over HTTP
 * (`POST /__proxy/faults`, `GET /__proxy/stats`) so a separate process can drive it.
 *
 * A fault with a selector or target also reaches the calls inside a Multicall3 `aggregate3`
 * (sent to a contract or deployless): an "error" fault fails only the matching inner call, which
 * comes back as a revert in its result slot (what a provider answers when one call reverts),
 * while the others are read upstream; any other mode fails the whole `eth_call`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createRng } from "./rng.js";
import { type InnerFaults, innerCalls, spliceInnerFaults, withoutInnerCalls } from "./rpc-proxy-aggregate3.js";
import { answerBehind, lagIsOn, type RpcLag } from "./rpc-proxy-lag.js";

export type RpcFault = {
  method?: string;
  /** First 4 bytes of eth_call data (params[0].data or params[0].input); only eth_call matches. */
  selector?: `0x${string}`;
  /** eth_call target, case-insensitive; only eth_call matches. */
  to?: `0x${string}`;
  /**
   * error: a JSON-RPC error; http500 / http429: that HTTP status (429 is a provider's rate limit);
   * timeout: no answer, the call never reaches upstream; blackhole: the call reaches upstream
   * (a transaction is sent) but its answer never comes back.
   */
  mode: "error" | "http500" | "http429" | "timeout" | "blackhole";
  /** The share of matching calls that fail (0 < rate ≤ 1, default 1), drawn from the proxy's seeded generator. */
  rate?: number;
};

export type RpcProxy = {
  url: string;
  setFaults(faults: RpcFault[]): void;
  clearFaults(): void;
  /** Answers as a node that many blocks behind the upstream head (rpc-proxy-lag.ts) until set to null. */
  setLag(lag: RpcLag | null): void;
  /**
   * Calls (batch elements count one by one) sent upstream, and calls answered by a fault (an
   * inner call of an aggregate3 counts one); `byMethod` splits `forwarded` by JSON-RPC method.
   */
  stats(): RpcProxyStats;
  stop(): Promise<void>;
};

export type RpcProxyStats = {
  forwarded: number;
  failed: number;
  byMethod: Record<string, number>;
  /** HTTP requests received (a JSON-RPC batch is one). */
  requests: number;
  /** Calls answered as a lagging node. */
  lagged: number;
};

type RpcRequest = { jsonrpc?: string; id?: unknown; method?: unknown; params?: unknown };

const MODES = new Set(["error", "http500", "http429", "timeout", "blackhole"]);
const HEX = /^0x[0-9a-fA-F]*$/;

/** Checks faults that arrive as JSON (the HTTP control endpoint); throws on anything malformed. */
export function parseFaults(value: unknown): RpcFault[] {
  if (!Array.isArray(value)) throw new Error("faults must be a JSON array");
  return value.map((f, i) => {
    const bad = (why: string) => new Error(`fault ${i}: ${why}`);
    if (typeof f !== "object" || f === null) throw bad("not an object");
    const { method, selector, to, mode, rate } = f as Record<string, unknown>;
    if (typeof mode !== "string" || !MODES.has(mode)) throw bad(`mode must be one of ${[...MODES].join(", ")}`);
    if (rate !== undefined && !(typeof rate === "number" && rate > 0 && rate <= 1))
      throw bad("rate must be a number in (0, 1]");
    if (method !== undefined && typeof method !== "string") throw bad("method must be a string");
    if (selector !== undefined && !(typeof selector === "string" && HEX.test(selector) && selector.length === 10))
      throw bad("selector must be 0x and 4 bytes of hex");
    if (to !== undefined && !(typeof to === "string" && HEX.test(to) && to.length === 42))
      throw bad("to must be an address");
    return { method, selector, to, mode, rate } as RpcFault;
  });
}

function matches(fault: RpcFault, req: RpcRequest): boolean {
  if (typeof req !== "object" || req === null) return false;
  if (fault.method !== undefined && fault.method !== req.method) return false;
  if (fault.selector === undefined && fault.to === undefined) return true;
  if (req.method !== "eth_call" || !Array.isArray(req.params)) return false;
  const tx = req.params[0] as { to?: unknown; data?: unknown; input?: unknown } | undefined;
  const data = tx?.data ?? tx?.input;
  if (
    fault.selector !== undefined &&
    (typeof data !== "string" || data.slice(0, 10).toLowerCase() !== fault.selector.toLowerCase())
  )
    return false;
  if (fault.to !== undefined && (typeof tx?.to !== "string" || tx.to.toLowerCase() !== fault.to.toLowerCase()))
    return false;
  return true;
}

const rpcError = (id: unknown, message: string) => ({
  jsonrpc: "2.0",
  id: id ?? null,
  error: { code: -32603, message },
});

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}

export async function startRpcProxy(options: { upstream: string; port?: number; seed?: number }): Promise<RpcProxy> {
  let faults: RpcFault[] = [];
  // Seeded, so a storm of partial faults replays the same way.
  const random = createRng(options.seed ?? 1);
  const counts = { forwarded: 0, failed: 0, requests: 0, lagged: 0 };
  let lag: { lag: RpcLag; since: number } | null = null;
  const byMethod: Record<string, number> = {};
  const held = new Set<ServerResponse>(); // "timeout" answers, released by stop()
  // In-flight upstream requests, aborted by stop(). One controller each: a single shared signal
  // collects an abort listener per request and warns past a few thousand of them.
  const inFlight = new Set<AbortController>();

  const faultFor = (req: RpcRequest) =>
    faults.find((f) => matches(f, req) && (f.rate === undefined || random() < f.rate));

  /**
   * The fault of a call, or of a call inside its aggregate3: an inner "error" fault is returned
   * as `inner` (those inner calls fail alone), any other inner fault fails the whole call.
   */
  function faultsOf(req: RpcRequest): { fault?: RpcFault; inner?: InnerFaults } {
    const fault = faultFor(req);
    if (fault) return { fault };
    const inner = req?.method === "eth_call" ? innerCalls(req.params) : null;
    if (!inner) return {};
    const failing = new Map<number, RpcFault>();
    inner.calls.forEach((c, i) => {
      const f = faultFor({ method: "eth_call", params: [{ to: c.target, data: c.callData }] });
      if (f) failing.set(i, f);
    });
    const whole = [...failing.values()].find((f) => f.mode !== "error");
    if (whole) return { fault: whole };
    return failing.size > 0 ? { inner: { ...inner, failing: [...failing.keys()] } } : {};
  }

  const snapshot = (): RpcProxyStats => ({ ...counts, byMethod: { ...byMethod } });

  const countMethods = (calls: RpcRequest[]) => {
    for (const c of calls) {
      const m = typeof c?.method === "string" ? c.method : "(invalid)";
      byMethod[m] = (byMethod[m] ?? 0) + 1;
    }
  };

  /** Sends `body` upstream; the upstream's answer as is, or null when there is none. */
  async function forward(
    body: Buffer | string,
    calls: number,
  ): Promise<{ status: number; type: string; body: Buffer } | null> {
    counts.forwarded += calls;
    const aborter = new AbortController();
    inFlight.add(aborter);
    try {
      const up = await fetch(options.upstream, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: typeof body === "string" ? body : new Uint8Array(body),
        signal: aborter.signal,
      });
      return {
        status: up.status,
        type: up.headers.get("content-type") ?? "application/json",
        body: Buffer.from(await up.arrayBuffer()),
      };
    } catch {
      return null;
    } finally {
      inFlight.delete(aborter);
    }
  }

  async function handleRpc(raw: Buffer, res: ServerResponse) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw.toString("utf8"));
    } catch {
      parsed = undefined; // not JSON: let the upstream answer it
    }
    const calls: RpcRequest[] = Array.isArray(parsed)
      ? parsed
      : typeof parsed === "object" && parsed !== null
        ? [parsed]
        : [];
    if (lag && calls.length > 0 && lagIsOn(lag.lag, lag.since, Date.now()))
      return answerLagging(calls, parsed, res, lag.lag);
    const found = calls.map((c) => faultsOf(c));
    const hits = found.map((f) => f.fault);

    if (hits.some((f) => f?.mode === "timeout")) {
      counts.failed += calls.length;
      held.add(res);
      res.once("close", () => held.delete(res));
      return;
    }
    if (hits.some((f) => f?.mode === "blackhole")) {
      counts.failed += calls.length;
      held.add(res);
      res.once("close", () => held.delete(res));
      countMethods(calls);
      await forward(raw, calls.length); // it reaches upstream; its answer is dropped
      return;
    }
    for (const [mode, status, message] of [
      ["http500", 500, "injected fault"],
      ["http429", 429, "Too Many Requests (injected fault)"],
    ] as const) {
      if (!hits.some((f) => f?.mode === mode)) continue;
      counts.failed += calls.length;
      const firstHit = calls[hits.findIndex((f) => f?.mode === mode)];
      return sendJson(res, status, {
        ...rpcError(firstHit?.id, message),
        ...(status === 429 && { error: { code: 429, message } }),
      });
    }
    const failing = hits.filter((f) => f !== undefined).length;
    const innerFailing = found.reduce((n, f) => n + (f.inner?.failing.length ?? 0), 0);
    if (failing === 0 && innerFailing === 0) {
      countMethods(calls);
      const up = await forward(raw, Math.max(calls.length, 1));
      if (!up) return sendJson(res, 502, rpcError(null, "upstream request failed"));
      res.writeHead(up.status, { "content-type": up.type }).end(up.body);
      return;
    }

    // Some calls get an injected error (mode "error"), some aggregate3 calls lose the inner
    // calls that fail; the rest still goes upstream.
    counts.failed += failing + innerFailing;
    const injected = (c: RpcRequest) => rpcError(c.id, "injected fault");
    // An aggregate3 whose every inner call fails is answered here; one with some is sent without them.
    const answeredHere = (i: number) =>
      hits[i] !== undefined ||
      (found[i]!.inner !== undefined && found[i]!.inner!.failing.length === found[i]!.inner!.calls.length);
    const passing = calls.flatMap((c, i) => {
      if (answeredHere(i)) return [];
      const inner = found[i]!.inner;
      return [inner ? { ...c, params: withoutInnerCalls(c.params as unknown[], inner) } : c];
    });
    let answers: { id?: unknown; result?: unknown }[] = [];
    if (passing.length > 0) {
      countMethods(passing);
      const up = await forward(JSON.stringify(passing), passing.length);
      if (!up) return sendJson(res, 502, rpcError(null, "upstream request failed"));
      try {
        const body = JSON.parse(up.body.toString("utf8")) as unknown;
        answers = Array.isArray(body) ? body : [body as { id?: unknown }];
      } catch {
        res.writeHead(up.status, { "content-type": up.type }).end(up.body); // pass oddities through
        return;
      }
    }
    // Answers in request order: upstream ones by id, injected ones in place; any upstream answer
    // without a matching id (e.g. a parse error with id null) goes at the end.
    const byId = new Map(answers.map((a) => [JSON.stringify(a?.id), a]));
    const out = calls.flatMap((c, i): unknown[] => {
      if (hits[i]) return [injected(c)];
      const inner = found[i]!.inner;
      if (inner && answeredHere(i))
        return [{ jsonrpc: "2.0", id: c.id ?? null, result: spliceInnerFaults(null, inner) }];
      const key = JSON.stringify(c?.id);
      const answer = byId.get(key);
      byId.delete(key);
      if (answer && inner && typeof answer.result === "string")
        return [{ ...answer, result: spliceInnerFaults(answer.result as `0x${string}`, inner) }];
      return answer ? [answer] : [];
    });
    if (!Array.isArray(parsed)) return sendJson(res, 200, out[0] ?? rpcError(calls[0]?.id, "no answer"));
    sendJson(res, 200, [...out, ...byId.values()]);
  }
  /** One call upstream, its result (or a throw carrying the upstream's JSON-RPC error). */
  async function ask(method: string, params: unknown[]): Promise<unknown> {
    countMethods([{ method }]);
    const up = await forward(JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }), 1);
    if (!up) throw new Error("upstream request failed");
    const body = JSON.parse(up.body.toString("utf8")) as { result?: unknown; error?: unknown };
    if (body.error) throw Object.assign(new Error("upstream error"), { rpcError: body.error });
    return body.result;
  }

  async function answerLagging(calls: RpcRequest[], parsed: unknown, res: ServerResponse, l: RpcLag) {
    const upstreamHead = BigInt((await ask("eth_blockNumber", [])) as string);
    const head = upstreamHead > BigInt(l.blocks) ? upstreamHead - BigInt(l.blocks) : 0n;
    counts.lagged += calls.length;
    const out = await Promise.all(calls.map((c) => answerBehind(c, head, ask)));
    sendJson(res, 200, Array.isArray(parsed) ? out : out[0]);
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const path = (req.url ?? "/").split("?")[0];
    if (path === "/__proxy/stats" && req.method === "GET") return sendJson(res, 200, snapshot());
    if (path === "/__proxy/faults" && req.method === "POST") {
      try {
        faults = parseFaults(JSON.parse((await readBody(req)).toString("utf8")));
      } catch (e) {
        return sendJson(res, 400, { error: (e as Error).message });
      }
      return sendJson(res, 200, { faults });
    }
    if (path === "/" && req.method === "POST") {
      counts.requests++;
      return handleRpc(await readBody(req), res);
    }
    sendJson(res, 404, { error: `no route ${req.method} ${path}` });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((e: Error) => {
      if (!res.headersSent) sendJson(res, 500, rpcError(null, `proxy error: ${e.message}`));
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as { port: number };

  return {
    url: `http://127.0.0.1:${port}`,
    setFaults: (next) => {
      faults = parseFaults(next);
    },
    clearFaults: () => {
      faults = [];
    },
    setLag: (next) => {
      lag = next ? { lag: next, since: Date.now() } : null;
    },
    stats: snapshot,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const a of inFlight) a.abort();
        for (const res of held) res.destroy();
        held.clear();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
