/** The I/O edge of GET /api/stats: seven balance reads pinned to one block, then the pure builder. */
import type { PsmKey } from "@kusd/core";
import { buildStats, PSM_KEYS, type Stats } from "@kusd/core";
import { PinnedReader, type ReadSpec } from "../../packages/verify/src/index.js";
import {
  type BlockHeader,
  blockTimestamp,
  type ReportBlock,
  type ReportContext,
  reportBlockHeader,
} from "../context.js";
import { type Rendered, render } from "../http/rendered.js";

export type RenderedStats = { stats: Stats; rendered: Rendered };

/** The stats at `at`, kept per block and block hash (every figure is a read pinned to the block). */
export async function renderStats(ctx: ReportContext, at: ReportBlock): Promise<RenderedStats> {
  const header = await reportBlockHeader(ctx, at.blockNumber);
  const build = async () => {
    const stats = await loadStats(ctx, at, header);
    return { stats, rendered: render(stats) };
  };
  return header ? ctx.caches.stats(`${at.blockNumber}:${header.hash}`, build) : build();
}

export async function loadStats(
  ctx: ReportContext,
  at: ReportBlock,
  header: BlockHeader | null = null,
): Promise<Stats> {
  const n = ctx.network;
  const r = new PinnedReader(ctx.base, at.blockNumber, n.reporting.publicRpc.base);
  const bal = (token: `0x${string}`, holder: `0x${string}`): ReadSpec => ({
    to: token,
    signature: "balanceOf(address)(uint256)",
    args: [holder],
  });
  const usdcSpecs = PSM_KEYS.map((k) => bal(n.usdc.address, n.psms[k].address));
  const kusdSpecs = PSM_KEYS.map((k) => bal(n.kUSD.address, n.psms[k].address));
  const supplySpec: ReadSpec = { to: n.kUSD.address, signature: "totalSupply()(uint256)" };
  const [usdc, kusd, supply, timestamp] = await Promise.all([
    Promise.all(usdcSpecs.map((s) => r.call<bigint>(s))),
    Promise.all(kusdSpecs.map((s) => r.call<bigint>(s))),
    r.call<bigint>(supplySpec),
    blockTimestamp(ctx, at.blockNumber, header),
  ]);
  return buildStats({
    blockNumber: at.blockNumber,
    blockTimestamp: timestamp,
    psmUsdc: Object.fromEntries(PSM_KEYS.map((k, i) => [k, usdc[i]!])) as Record<PsmKey, bigint>,
    psmKusd: kusd,
    kusdSupply: supply,
    verifyVia: [
      ...PSM_KEYS.map((k, i) => r.command(usdcSpecs[i]!, `USDC of ${k}`, usdc[i]!, 6)),
      ...PSM_KEYS.map((k, i) => r.command(kusdSpecs[i]!, `kUSD held by ${k}`, kusd[i]!, 18)),
      r.command(supplySpec, "kusdSupplyWei", supply, 18),
    ],
  });
}
