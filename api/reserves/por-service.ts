/**
 * The I/O edge of the reserves report: gathers the pinned chain snapshot, the venue read and
 * the indexed history for one block, then hands them to the pure assembler.
 */
import type { Address } from "viem";
import { PinnedReader } from "../io/pinned-reader.js";
import { kusdBurnedUpTo, redemptionsUpTo } from "../io/indexed-reads.js";
import { everListed } from "../../core/registry/versions.js";
import type { ReportBlock, ReportContext } from "../context.js";
import { venueReadCommand, VenueReadError, type VenueAccountState } from "../io/hyperliquid.js";
import { buildPorReport, type PorReport } from "../../core/reserves/por/por-report.js";
import type { ChainSnapshot } from "../../core/reserves/por/snapshot.js";
import { readChainSnapshot, readPsmSnapshots, type SnapshotAddresses } from "./chain-snapshot.js";

export function snapshotAddresses(ctx: ReportContext): SnapshotAddresses {
  const n = ctx.network;
  const r = n.reporting;
  const listed = new Set<Address>([...everListed(n.registry.versions).map((e) => e.address), r.operator, ...(r.hedgeWatchOnly ? [r.hedgeWatchOnly] : [])]);
  return {
    kUSD: n.kUSD.address,
    usdc: n.usdc.address,
    weth: n.weth.address,
    psms: { psmMint: n.psms.psmMint.address, psmRetiredMint: n.psms.psmRetiredMint.address, psmRedeemReserve: n.psms.psmRedeemReserve.address },
    vaultV1: n.depositVaults.vaultV1.address,
    vaultV2: n.depositVaults.vaultV2.address,
    skUSD: n.stakingVaults.skUSD.address,
    skUSDDeprecated: n.stakingVaults.skUSDDeprecated.address,
    insuranceFund: r.insuranceFund,
    treasury: r.treasury,
    multisig: r.multisig,
    operator: r.operator,
    hedgeWatchOnly: r.hedgeWatchOnly,
    ethUsdFeed: r.ethUsdFeed,
    lendingEscrowKUSD: n.lending.lendingEscrowKUSD?.address ?? null,
    listedAccounts: [...listed],
  };
}

/** The registry's accounts with their kind (externally owned = the founder's wallets). */
export function listedAccounts(ctx: ReportContext) {
  const r = ctx.network.reporting;
  const entries = everListed(ctx.network.registry.versions).map((e) => ({ address: e.address, kind: e.kind, role: e.role }));
  for (const [address, role] of [[r.operator, "venue_margin"], [r.hedgeWatchOnly, "hedge_base_watch_only"]] as const) {
    if (address && !entries.some((e) => e.address.toLowerCase() === address.toLowerCase())) entries.push({ address, kind: "eoa", role });
  }
  return entries;
}

/** The PSMs alone at `blockNumber` (a handful of reads instead of the whole snapshot). */
export function readPsms(ctx: ReportContext, blockNumber: bigint) {
  return readPsmSnapshots(new PinnedReader(ctx.base, blockNumber, ctx.network.reporting.publicRpc.base), snapshotAddresses(ctx));
}

export async function readSnapshot(ctx: ReportContext, blockNumber: bigint): Promise<ChainSnapshot> {
  return readChainSnapshot(new PinnedReader(ctx.base, blockNumber, ctx.network.reporting.publicRpc.base), snapshotAddresses(ctx));
}

/** The venue's live account state; only meaningful for a report at the head (the venue has no history). */
export async function readVenue(ctx: ReportContext, atHead: boolean): Promise<{ state: VenueAccountState | null; reason: string | null }> {
  if (!ctx.venue) return { state: null, reason: "venue not configured" };
  if (!atHead) return { state: null, reason: "past block: the venue publishes current equity only, so the mirror is left unverified" };
  try {
    return { state: await ctx.venue.clearinghouseState(ctx.network.reporting.venue.account), reason: null };
  } catch (e) {
    if (e instanceof VenueReadError) return { state: null, reason: `venue read failed: ${e.message}` };
    throw e;
  }
}

export async function loadPorReport(ctx: ReportContext, at: ReportBlock): Promise<PorReport> {
  const n = ctx.network;
  const [snapshot, venue, redemptions, burned, rpcChainLength] = await Promise.all([
    readSnapshot(ctx, at.blockNumber),
    readVenue(ctx, at.atHead),
    redemptionsUpTo(ctx.db, at.blockNumber),
    kusdBurnedUpTo(ctx.db, at.blockNumber),
    ctx.base.getBlockNumber({ cacheTime: 0 }).then(Number, () => null),
  ]);
  return buildPorReport({
    chainId: n.chains.base.id,
    snapshot,
    venue: {
      ...venue,
      url: n.reporting.venue.url,
      account: n.reporting.venue.account,
      readCommand: n.reporting.venue.url ? venueReadCommand(n.reporting.venue.url, n.reporting.venue.account) : null,
    },
    precedent: {
      redemptions,
      registry: n.registry.versions,
      kusdBurned: burned,
      completeAsOf: { blockNumber: at.blockNumber, timestamp: snapshot.blockTimestamp },
      kusd: n.kUSD.address,
      fromBlock: n.kUSD.startBlock,
      rpcUrl: n.reporting.publicRpc.base,
    },
    registry: n.registry.versions,
    addresses: { kUSD: n.kUSD.address, usdc: n.usdc.address, weth: n.weth.address, ethUsdFeed: n.reporting.ethUsdFeed },
    listed: listedAccounts(ctx),
    rpcChainLength,
    canonicalEndpoint: `${ctx.siteUrl}/api/por`,
    commandRpcUrl: n.reporting.publicRpc.base,
    indexedHead: { blockNumber: at.head.blockNumber, timestamp: at.head.timestamp },
    atHead: at.atHead,
  });
}
