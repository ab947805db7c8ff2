/**
 * Every JSON-RPC call our own clients send, counted as a provider bills it: each call inside a
 * JSON-RPC batch counts one, by method and by what it was for. Counted at the transport (viem's
 * `http` with an `onFetchRequest` hook reading the body it is about to send), so retries count
 * too, and nothing upstream of the wire can hide a call. GET /metrics exports the tally
 * (kusd_rpc_calls_total, api/http/metrics.ts).
 */
import { type HttpTransportConfig, http, type Transport } from "viem";

/** What a call was for: the cost an operator reads per purpose off a dashboard. */
export const RPC_PURPOSES = ["indexing", "reports", "live reads", "paid settlement", "anchoring", "monitor"] as const;
export type RpcPurpose = (typeof RPC_PURPOSES)[number];

export type RpcTally = {
  /** Counts `calls` calls of `method` and, once per HTTP request, the request. */
  count(purpose: RpcPurpose, methods: string[]): void;
  /** Calls so far by purpose and method, and HTTP requests by purpose. */
  snapshot(): {
    calls: Array<{ purpose: RpcPurpose; method: string; value: number }>;
    requests: Record<string, number>;
  };
};

export function createRpcTally(): RpcTally {
  const calls = new Map<string, { purpose: RpcPurpose; method: string; value: number }>();
  const requests: Record<string, number> = {};
  return {
    count(purpose, methods) {
      requests[purpose] = (requests[purpose] ?? 0) + 1;
      for (const method of methods) {
        const key = `${purpose}\n${method}`;
        const entry = calls.get(key) ?? { purpose, method, value: 0 };
        entry.value += 1;
        calls.set(key, entry);
      }
    },
    snapshot: () => ({ calls: [...calls.values()].map((c) => ({ ...c })), requests: { ...requests } }),
  };
}

/**
 * The process's tally. Kept on globalThis: Ponder loads the indexing functions and the API as
 * separate module graphs of one process, and the indexer's own calls must land where GET /metrics
 * reads.
 */
export function processRpcTally(): RpcTally {
  const holder = globalThis as { [TALLY]?: RpcTally };
  holder[TALLY] ??= createRpcTally();
  return holder[TALLY];
}
const TALLY = Symbol.for("kusd.rpcCalls");

/** The JSON-RPC methods in a request body (a batch names one per call); "unparsed" when it is not JSON-RPC. */
export function methodsOf(body: unknown): string[] {
  if (typeof body !== "string") return ["unparsed"];
  try {
    const parsed = JSON.parse(body) as unknown;
    const calls = Array.isArray(parsed) ? parsed : [parsed];
    return calls.map((c) =>
      typeof (c as { method?: unknown })?.method === "string" ? (c as { method: string }).method : "unparsed",
    );
  } catch {
    return ["unparsed"];
  }
}

/** viem's `http` transport, each call it sends counted under `purpose`. */
export function countedHttp(
  url: string,
  purpose: RpcPurpose,
  options: HttpTransportConfig = {},
  tally: RpcTally = processRpcTally(),
): Transport {
  const { onFetchRequest } = options;
  return http(url, {
    ...options,
    onFetchRequest: async (request, init) => {
      tally.count(purpose, methodsOf(init.body));
      return onFetchRequest?.(request, init);
    },
  });
}
