/** Access to the shared test stack: the devnet deployment, chain clients and the indexed tables. */
import { createClient } from "@ponder/client";
import { createPublicClient, createWalletClient, type Hex, http, type PublicClient } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { inject } from "vitest";
import { devnetChain } from "../../devnet/chains.js";
import { readDeployment } from "../../devnet/deployment.js";
import * as schema from "../../ponder.schema.js";

export function stack() {
  const deployment = readDeployment(inject("deploymentFile"));
  const rpcUrl = deployment.chains.base.rpcUrl;
  const chain = devnetChain(8453, rpcUrl);
  const client = createPublicClient({ chain, transport: http(rpcUrl), pollingInterval: 50 }) as PublicClient;
  const indexerUrl = inject("indexerUrl");
  const privateSqlUrl = inject("privateSqlUrl");
  const sql = createClient(privateSqlUrl, { schema });
  const wallet = (privateKey: Hex) =>
    createWalletClient({
      account: privateKeyToAccount(privateKey),
      chain,
      transport: http(rpcUrl),
      pollingInterval: 50,
    });
  const addr = (name: string) => deployment.chains.base.contracts[name]!.address;
  const indexedBlock = async (chainName = "base") => {
    const status = (await (await fetch(`${indexerUrl}/status`)).json()) as Record<
      string,
      { block: { number: number } | null }
    >;
    return status[chainName]?.block?.number ?? -1;
  };
  /** Polls until the indexed base block reaches `target()`, read again at every poll; returns it. */
  const indexedTo = async (target: () => Promise<number>, timeoutMs: number) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const [want, indexed] = await Promise.all([target(), indexedBlock()]);
      if (indexed >= want) return want;
      if (Date.now() > deadline) throw new Error(`indexer did not reach block ${want} (at ${indexed})`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  /** Waits until the indexer has processed `block` on base. */
  const indexedThrough = async (block: number | bigint, timeoutMs = 30_000) => {
    await indexedTo(async () => Number(block), timeoutMs);
  };
  /**
   * Waits until the indexer has processed the chain's current head (read uncached), read again at
   * every poll: another file's snapshot/revert reorg can lower the shared chain's head while this
   * waits, and the indexer then follows it down (a head read once could be gone for good).
   */
  const head = async () => Number(await client.request({ method: "eth_blockNumber" }));
  const caughtUp = (timeoutMs = 30_000) => indexedTo(head, timeoutMs);
  /**
   * A reorg: back to `snapshot`, then a fork of at least `blocks` blocks and longer than the chain
   * it replaces, and the indexer on it. `caughtUp` compares block numbers, so a fork no higher than
   * the old indexed head (other files mine on the shared devnet) read as caught up before the
   * indexer had followed the reorg.
   */
  const reorgTo = async (snapshot: Hex, blocks = 4) => {
    const before = await head();
    await client.request({ method: "evm_revert" as never, params: [snapshot] as never });
    const fork = Math.max(blocks, before - (await head()) + 1);
    for (let i = 0; i < fork; i++) await client.request({ method: "evm_mine" as never });
    await caughtUp();
  };
  /** Waits until the first signed statement is published (signed once the indexer has caught up). */
  const statementPublished = async (timeoutMs = 60_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const res = await fetch(`${indexerUrl}/api/por/signed`);
      await res.arrayBuffer();
      if (res.status === 200) return;
      if (Date.now() > deadline) throw new Error("no signed statement was published");
      await new Promise((r) => setTimeout(r, 250));
    }
  };
  return {
    deployment,
    client,
    db: sql.db,
    privateSqlUrl,
    schema,
    wallet,
    addr,
    indexerUrl,
    indexedBlock,
    indexedThrough,
    caughtUp,
    reorgTo,
    statementPublished,
    rpcUrl,
  };
}
