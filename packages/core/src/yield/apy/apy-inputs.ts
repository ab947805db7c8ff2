/**
 * What the yield report (spec 2.4) is assembled from: the venue's funding history, current rates
 * and hedge account, the indexed LST rates and skUSD share prices, and the incentive escrow read
 * at one pinned block. Raw values only (null where a read failed); the I/O that fills them lives
 * in api/yield/apy-inputs.ts, so the report itself can be built and tested without a chain.
 */
import type { Address, Hex } from "viem";
import type { NetworkConfig } from "../../network/types.js";
import type { BlockPin, VenueRequestPin } from "../../reports/pins.js";
import type { MarketPeer } from "./apy-market-context.js";

/** One venue's current rate for a coin, as predictedFundings answers it (rate per interval, as text). */
export type PredictedQuote = { fundingRate: string; fundingIntervalHours?: number };
/** The predictedFundings answer: per coin, each venue's quote. */
export type PredictedFundings = [string, [string, PredictedQuote][]][];

export type VenueInputs = {
  name: string;
  /** The /info endpoint; null when the deployment names no venue. */
  url: string | null;
  /** The hedge account. */
  account: Address;
  coin: string;
  /** Why the venue is unknown this time; null when every venue read landed. */
  error: string | null;
  /** The hourly funding rates over the funding window, oldest first; empty when unknown. */
  hourlyFundingRates: number[];
  predicted: PredictedFundings;
  /** The hedge account's state; null when unknown or when there is no venue client. */
  hedgeAccount: { equityUsd: number; notionalUsd: number; positions: { size: number }[] } | null;
  /** Every request made, as the report's pins publish it (the funding window exactly; current answers as used). */
  requests: VenueRequestPin[];
};

/** An indexed observation of an LST's exchange rate. */
export type LstRateRow = { symbol: string; blockNumber: bigint; timestamp: bigint; rate: bigint };

/** An indexed skUSD share price: convertToAssets(1e24 share units) in kUSD wei. */
export type SharePriceRow = { blockNumber: bigint; timestamp: bigint; assetsPerShare: bigint };

/** The escrow's and skUSD's reads at `blockNumber`, raw; null where a read failed. */
export type EscrowReads = {
  targetApyBps: bigint | null;
  tvlCap: bigint | null;
  endsAt: bigint | null;
  totalFunded: bigint | null;
  totalDistributed: bigint | null;
  balance: bigint | null;
  /** skUSD totalAssets(): the eligible TVL. */
  totalAssets: bigint | null;
  yieldVestingPeriod: bigint | null;
  /** skUSD balanceOf(operator): the insider's shares. */
  insiderShares: bigint | null;
  totalSupply: bigint | null;
};

export type EscrowInputs = {
  address: Address;
  /** The token it pays (kUSD). */
  token: Address;
  /** The vault it pays into (skUSD). */
  vault: Address;
  /** The operator, whose skUSD is the insider stake. */
  insider: Address;
  reads: EscrowReads;
  /** The latest YieldDistributed into skUSD, as indexed. */
  lastYield: { timestamp: bigint; assets: bigint | null; txHash: Hex; blockNumber: bigint; logIndex: number } | null;
  /**
   * The `cast call` reproducing each read, made by the reader that did it (so a command cannot
   * drift from its read); a failed read's command shows "?".
   */
  verifyVia: {
    targetApyBps: string;
    balance: string;
    tvlCap: string;
    totalAssets: string;
    insiderShares: string;
    yieldVestingPeriod: string;
  };
};

export type ApyInputs = {
  /** Unix seconds the report is dated; every window ends here. */
  now: number;
  /** The block the chain reads are pinned to (the indexed head). */
  blockNumber: bigint;
  /** The network document and the block's header, as the report's pins name them (block null: its header could not be read). */
  pinned: { chainId: number; documentSha256: Hex; block: BlockPin | null };
  /** The RPC URL printed in reproduction commands. */
  commandRpcUrl: string;
  policy: NetworkConfig["yieldPolicy"];
  /** The LSTs the staking yield averages, in the order they are published. */
  lsts: NetworkConfig["lsts"];
  venue: VenueInputs;
  /** LST rate observations of the last 8 days, oldest first. */
  lstRates: LstRateRow[];
  /** The latest skUSD share price and the one the realized window starts from. */
  sharePrices: { latest: SharePriceRow | null; windowStart: SharePriceRow | null };
  /** null when the deployment has no incentive escrow. */
  escrow: EscrowInputs | null;
  marketPeers: MarketPeer[];
};
