/**
 * A colluding RPC for the verifier's tests: it lies about one ERC-20 balance, consistently, as a
 * node run by someone who wants a raised figure confirmed would. `eth_call` of `balanceOf(holder)`
 * on `token` (alone, or inside a Multicall3 aggregate3) answers `value`, and `eth_getProof` of
 * `token` reports `value` for the balance's storage slot, in its `value` field and in the proof's
 * leaf (unless `inProofs` is false: then only eth_call lies). Every other request, and every other
 * part of an answer, is the real node's.
 */
import { createServer } from "node:http";
import {
  type Address,
  decodeFunctionResult,
  encodeAbiParameters,
  encodeFunctionData,
  encodeFunctionResult,
  erc20Abi,
  fromRlp,
  type Hex,
  multicall3Abi,
  numberToHex,
  toRlp,
} from "viem";
import { innerCalls } from "../../devnet/rpc-proxy-aggregate3.js";

/** `inProofs` false: eth_getProof is the real node's, so its eth_call answers differ from its own proofs. */
type Lie = { token: Address; holder: Address; slot: Hex; value: bigint; inProofs?: boolean };
type Req = { id?: unknown; method?: string; params?: unknown[] };
type Res = { id?: unknown; result?: unknown };

const word = (v: bigint) => encodeAbiParameters([{ type: "uint256" }], [v]);

function lieAbout(req: Req, res: Res, lie: Lie): Res {
  if (res.result === undefined || !Array.isArray(req.params)) return res;
  const balanceOf = encodeFunctionData({ abi: erc20Abi, functionName: "balanceOf", args: [lie.holder] }).toLowerCase();
  if (req.method === "eth_call") {
    const tx = req.params[0] as { to?: string; data?: string; input?: string };
    const inner = innerCalls(req.params);
    if (inner) {
      const hit = inner.calls.findIndex(
        (c) => c.target.toLowerCase() === lie.token.toLowerCase() && c.callData.toLowerCase() === balanceOf,
      );
      if (hit < 0) return res;
      const results = [
        ...decodeFunctionResult({ abi: multicall3Abi, functionName: "aggregate3", data: res.result as Hex }),
      ];
      results[hit] = { success: true, returnData: word(lie.value) };
      return {
        ...res,
        result: encodeFunctionResult({ abi: multicall3Abi, functionName: "aggregate3", result: results }),
      };
    }
    const data = (tx.data ?? tx.input ?? "").toLowerCase();
    if (tx.to?.toLowerCase() === lie.token.toLowerCase() && data === balanceOf)
      return { ...res, result: word(lie.value) };
    return res;
  }
  if (
    lie.inProofs !== false &&
    req.method === "eth_getProof" &&
    String(req.params[0]).toLowerCase() === lie.token.toLowerCase()
  ) {
    const proof = res.result as { storageProof: { key: Hex; value: Hex; proof: Hex[] }[] };
    const storageProof = proof.storageProof.map((p) => {
      if (BigInt(p.key) !== BigInt(lie.slot)) return p;
      // The leaf [path, rlp(value)] re-encoded with the lie: the only node that holds the value.
      const leaf = fromRlp(p.proof.at(-1)!, "hex") as Hex[];
      const forged = toRlp([leaf[0]!, toRlp(numberToHex(lie.value))]);
      return { ...p, value: numberToHex(lie.value), proof: [...p.proof.slice(0, -1), forged] };
    });
    return { ...res, result: { ...proof, storageProof } };
  }
  return res;
}

export async function startLyingRpc(upstream: string, lie: Lie): Promise<{ url: string; stop: () => Promise<void> }> {
  const server = createServer(async (request, response) => {
    let body = "";
    for await (const chunk of request) body += chunk;
    const parsed = JSON.parse(body) as Req | Req[];
    const answered = await fetch(upstream, { method: "POST", headers: { "content-type": "application/json" }, body });
    const upstreamJson = (await answered.json()) as Res | Res[];
    const out = Array.isArray(parsed)
      ? (upstreamJson as Res[]).map((r) => lieAbout(parsed.find((q) => q.id === r.id) ?? {}, r, lie))
      : lieAbout(parsed, upstreamJson as Res, lie);
    response.setHeader("content-type", "application/json");
    response.end(JSON.stringify(out));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
