/** One JSON-RPC call over fetch, for the few places that talk to a node before viem is set up. */
export async function rpcCall<T>(
  rpcUrl: string,
  method: string,
  params: unknown[] = [],
  timeoutMs = 5_000,
): Promise<T> {
  const res = await fetch(rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const body = (await res.json()) as { result?: T; error?: { message: string } };
  if (body.error) throw new Error(`${method} failed: ${body.error.message}`);
  return body.result as T;
}

export const rpcBlockNumber = async (rpcUrl: string) => Number(await rpcCall<string>(rpcUrl, "eth_blockNumber"));
