/**
 * GraphQL's response cache (api/graphql/response-cache.ts): the same query over the same indexed
 * state runs no SQL the second time, and a reorg that replaces the head block by another at the
 * same height is a new key: the answer follows the chain, never the abandoned block.
 */
import { type Address, type Hex, parseUnits } from "viem";
import { describe, expect, it } from "vitest";
import { fiatTokenV2Abi } from "../../abis/index.js";
import { stack } from "../helpers/stack.js";

const s = stack();
const d = s.deployment;
type Result = { data?: any; errors?: unknown[]; extensions?: { sqlQueries?: number } };
const gql = async (query: string): Promise<Result> => {
  const res = await fetch(`${s.indexerUrl}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query }),
  });
  const body = (await res.json()) as Result;
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  return body;
};

/** The newest registry transfer: what a mint of USDC to a registry account adds. */
const NEWEST = `{ registryTransfers(orderBy: blockNumber, orderDirection: desc, first: 1) { nodes { txHash amount blockNumber } } }`;

async function mintUsdcTo(to: Address, amount: bigint): Promise<{ hash: Hex; block: bigint }> {
  const circle = s.wallet(d.accounts.circle!.privateKey);
  const hash = await circle.writeContract({
    address: s.addr("usdc"),
    abi: fiatTokenV2Abi,
    functionName: "mint",
    args: [to, amount],
  });
  const receipt = await s.client.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe("success");
  return { hash, block: receipt.blockNumber };
}

describe("GraphQL response cache", () => {
  it("answers a repeated query without SQL, the same answer", async () => {
    await s.caughtUp();
    const q = `{ psmSwaps(first: 100, orderBy: kusdAmount, orderDirection: desc) { totalCount nodes { id kusdAmount user { address } } } }`;
    const first = await gql(q);
    const second = await gql(q);
    expect(second.data).toEqual(first.data);
    expect(second.extensions?.sqlQueries).toBe(0);
    // From the third on, the answer's bytes are kept: served without running the operation again.
    const third = await fetch(`${s.indexerUrl}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: q }),
    });
    expect(third.headers.get("x-cache")).toBe("HIT");
    expect(third.headers.get("content-type")).toMatch(/json/);
    expect(((await third.json()) as Result).data).toEqual(first.data);
    // Another Accept is another answer (its content type differs): not served from those bytes.
    const other = await fetch(`${s.indexerUrl}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/graphql-response+json" },
      body: JSON.stringify({ query: q }),
    });
    expect(other.headers.get("x-cache")).toBeNull();
    expect(other.headers.get("content-type")).toMatch(/application\/graphql-response\+json/);
  });

  it("a reorg to another block at the same height is a new key: the answer follows the chain", async () => {
    const treasury = s.addr("treasury");
    await s.caughtUp();
    const snapshot = (await s.client.request({ method: "evm_snapshot" as never })) as Hex;
    const before = await mintUsdcTo(treasury, parseUnits("1", 6));
    await s.caughtUp();
    const cached = await gql(NEWEST);
    expect(cached.data.registryTransfers.nodes[0].txHash).toBe(before.hash);
    expect((await gql(NEWEST)).extensions?.sqlQueries).toBe(0);
    expect((await gql(NEWEST)).data).toEqual(cached.data); // kept bytes now

    await s.client.request({ method: "evm_revert" as never, params: [snapshot] as never });
    const after = await mintUsdcTo(treasury, parseUnits("2", 6));
    expect(after.block).toBe(before.block);
    expect(after.hash).not.toBe(before.hash);
    // Ponder applies the reorg when it next polls; from then on the answer is the new block's.
    const deadline = Date.now() + 30_000;
    let newest: any;
    do {
      newest = (await gql(NEWEST)).data.registryTransfers.nodes[0];
      if (newest.txHash === after.hash) break;
      await new Promise((r) => setTimeout(r, 200));
    } while (Date.now() < deadline);
    expect(newest).toEqual({
      txHash: after.hash,
      amount: String(parseUnits("2", 6)),
      blockNumber: String(after.block),
    });
  });
});
