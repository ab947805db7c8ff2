/**
 * GET /api/honesty-index: a realized-yield board for ERC-4626 vaults (skUSD, the superseded
 * vault, and any peer configured by chain and address). Realized APY over 7, 30 and 90 days
 * comes from convertToAssets(one share) read at the blocks of those dates, through the read plan
 * a reader re-derives the board with (packages/verify/src/read-plan/honesty-index-reads.ts), and
 * assembled by buildHonestyIndexPayload; the board is signed in the statements' scheme, its pins
 * inside the signed bytes.
 */

import {
  type BlockPin,
  type BoardChain,
  type BoardChainReads,
  type BoardVault,
  buildHonestyIndexPayload,
  type HonestyIndex,
  honestyIndexDocument,
  ownBoardVaults,
  signPayload,
} from "@kusd/core";
import type { PublicClient } from "viem";
import { boardWindows, headersOf, readBoardVaults } from "../../packages/verify/src/index.js";
import type { ReportContext } from "../context.js";
import { type SigningKeys, signerFor } from "../statements/keys.js";
import { loadApy } from "./apy-service.js";

export type { BoardVault };

/** A chain's head (its header, already read by the getBlock that found it) and where each window starts. */
async function chainReads(client: PublicClient): Promise<BoardChainReads> {
  const b = await client.getBlock({ blockTag: "latest" });
  const head: BlockPin = { number: Number(b.number), hash: b.hash!, timestamp: Number(b.timestamp) };
  return { head, windows: await boardWindows(headersOf(client), head) };
}

export async function loadHonestyIndex(
  ctx: ReportContext,
  keys: SigningKeys,
  peers: readonly BoardVault[],
  now = Math.floor(Date.now() / 1000),
): Promise<HonestyIndex> {
  const n = ctx.network;
  const own = ownBoardVaults(n);
  const vaults = [...own, ...peers];
  // expectedAPY is ours alone: the market peers shown beside it do not change it.
  const expectedAPY = vaults.some((v) => v.advertised === "kusd-expected-apy")
    ? ((await loadApy(ctx, [], now).catch(() => null))?.expectedAPY ?? null)
    : null;
  const clients: Record<BoardChain, PublicClient> = { base: ctx.base, ethereum: ctx.ethereum };
  const read = async (chain: BoardChain) => (vaults.some((v) => v.chain === chain) ? chainReads(clients[chain]) : null);
  const chains = { base: await read("base"), ethereum: await read("ethereum") };
  const source = (chain: BoardChain) => {
    const reads = chains[chain];
    return reads && { ...reads, clientAt: () => clients[chain], commandRpcUrl: n.reporting.publicRpc[chain] };
  };
  const { reads } = await readBoardVaults(vaults, { base: source("base"), ethereum: source("ethereum") });
  const payload = buildHonestyIndexPayload({
    now,
    network: { chainId: n.chains.base.id, documentSha256: n.documentSha256 },
    own,
    peers: [...peers],
    expectedAPY,
    chains,
    reads,
  });
  const signer = signerFor(keys, now);
  const signed = signer
    ? await signPayload(signer.account, JSON.parse(JSON.stringify(payload)) as typeof payload)
    : null;
  return honestyIndexDocument(payload, signed);
}
