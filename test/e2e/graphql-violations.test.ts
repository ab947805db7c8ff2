/**
 * Violations over GraphQL: the listing, and the live subscription as server-sent events
 * (DETECTED when a violation is indexed, RETRACTED when a reorg removes it).
 */

import { parseEther } from "viem";
import { describe, expect, it } from "vitest";
import { weth9Abi } from "../../abis/index.js";
import { devnetKey } from "../../devnet/keys.js";
import { sseEvents } from "../helpers/graphql-streams.js";
import { stack } from "../helpers/stack.js";

const s = stack();
const d = s.deployment;
const gql = async (query: string) => {
  const res = await fetch(`${s.indexerUrl}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query }),
  });
  return (await res.json()) as { data?: any; errors?: any[] };
};

describe("GraphQL violations", () => {
  it("lists the scripted violation", async () => {
    const { data, errors } = await gql(
      `{ violations(filter: { range: { toBlock: "${d.chains.base.historyEndBlock}" } }) { nodes { txHash tokenSymbol amount decimals registryVersion } } }`,
    );
    expect(errors).toBeUndefined();
    expect(data.violations.nodes.map((v: any) => v.txHash)).toEqual([d.landmarks.violation!.tx]);
    expect(data.violations.nodes[0]).toMatchObject({
      tokenSymbol: "WETH",
      amount: "2000000000000000000",
      decimals: 18,
    });
  });

  it("streams a live violation as DETECTED, and RETRACTED after a reorg removes it", async () => {
    await s.caughtUp();
    const controller = new AbortController();
    const res = await fetch(`${s.indexerUrl}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "text/event-stream" },
      body: JSON.stringify({ query: "subscription { violations { kind violation { txHash from tokenSymbol } } }" }),
      signal: controller.signal,
    });
    expect(res.headers.get("content-type")).toMatch(/text\/event-stream/);
    const events = sseEvents(res.body!);
    const snapshot = await s.client.request({ method: "evm_snapshot" as never });
    const wallet = s.wallet(d.accounts.hedgeWatchOnly!.privateKey);
    const hash = await wallet.writeContract({
      address: s.addr("weth"),
      abi: weth9Abi,
      functionName: "transfer",
      args: [devnetKey("test:gql-stranger").address, parseEther("0.01")],
    });
    await s.client.waitForTransactionReceipt({ hash });
    const next = async () => (await events.next()).value?.data?.violations as any;
    const detected = await next();
    expect(detected).toMatchObject({ kind: "DETECTED", violation: { txHash: hash, tokenSymbol: "WETH" } });
    await s.client.request({ method: "evm_revert" as never, params: [snapshot] as never });
    for (let i = 0; i < 3; i++) await s.client.request({ method: "evm_mine" as never });
    const retracted = await next();
    expect(retracted).toMatchObject({ kind: "RETRACTED", violation: { txHash: hash } });
    controller.abort();
  }, 60_000);
});
