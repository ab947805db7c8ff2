/**
 * What the yield reports show beside ours, from the configuration: the market peers of /api/apy's
 * marketContext (KUSD_MARKET_PEERS) and the vaults after ours on /api/honesty-index
 * (KUSD_HONESTY_PEERS). The yield feature's own part of the configuration, not the reports'.
 */
import type { BoardVault, MarketPeer } from "@kusd/core";

export type YieldPeers = { marketPeers: MarketPeer[]; honestyPeers: BoardVault[] };

export const NO_PEERS: YieldPeers = { marketPeers: [], honestyPeers: [] };
