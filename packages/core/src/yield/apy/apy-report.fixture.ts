/**
 * Hand-made ApyInputs for the unit tests, with round numbers so every figure can be worked out
 * by hand: funding 10 % a year (L = 2.5), staking 4 % (5 % and 3 %), so gross = 2.5/3.5 × 0.14
 * = 0.10 and the headline 0.10 × 0.9 × 0.9 = 0.081; skUSD grew 0.5 % in 36.5 days (5 % a year);
 * the escrow targets 12 % on a 1,000,000 cap with 40,000 left for 73 days on a 500,000 book.
 */
import type { Address, Hex } from "viem";
import type { ApyInputs } from "./apy-inputs.js";

export const NOW = 1_800_000_000; // 2027-01-15T08:00:00Z
const DAY = 86_400;
const E18 = 10n ** 18n;
const E24 = 10n ** 24n;

export const ADDR = {
  venueAccount: "0x1111111111111111111111111111111111111111",
  wstETH: "0x2222222222222222222222222222222222222222",
  cbETH: "0x3333333333333333333333333333333333333333",
  escrow: "0x4444444444444444444444444444444444444444",
  kUSD: "0x5555555555555555555555555555555555555555",
  skUSD: "0x6666666666666666666666666666666666666666",
  operator: "0x7777777777777777777777777777777777777777",
} as const satisfies Record<string, Address>;

export const YIELD_TX: Hex = `0x${"ab".repeat(32)}`;

const at = (daysAgo: number) => BigInt(NOW - Math.round(daysAgo * DAY));

export function fixture(): ApyInputs {
  return {
    now: NOW,
    blockNumber: 2_001n,
    pinned: {
      chainId: 8453,
      documentSha256: `0x${"d0".repeat(32)}`,
      block: { number: 2_001, hash: `0x${"0b".repeat(32)}`, timestamp: NOW - 2 },
    },
    commandRpcUrl: "https://rpc.example",
    policy: { strategyCostFraction: 0.1, insuranceAllocation: 0.1, protocolFee: 0, feePhase: "genesis" },
    lsts: {
      wstETH: { kind: "rate-event", address: ADDR.wstETH, startBlock: 1 },
      cbETH: {
        kind: "exchange-rate-feed",
        address: ADDR.cbETH,
        startBlock: 1,
        intervalBlocks: 300,
        feed: { address: ADDR.cbETH, description: "cbETH / ETH exchange rate", decimals: 18, source: "test" },
      },
      rETH: { kind: "rate-event", address: ADDR.wstETH, startBlock: 1 },
    },
    venue: {
      name: "hyperliquid",
      url: "http://venue.test/info",
      account: ADDR.venueAccount,
      coin: "ETH",
      error: null,
      // Mean 0.10 / 8760 an hour; the 10th and 90th percentiles are 0.06 and 0.14 a year.
      hourlyFundingRates: [0.05 / 8760, 0.15 / 8760],
      predicted: [
        [
          "ETH",
          [
            ["HlPerp", { fundingRate: "0.00001", fundingIntervalHours: 1 }],
            ["BinPerp", { fundingRate: "0.0001" }],
          ],
        ],
        ["BTC", [["HlPerp", { fundingRate: "0.5", fundingIntervalHours: 1 }]]],
      ],
      hedgeAccount: { equityUsd: 100_000, notionalUsd: 250_000, positions: [{ size: -100 }] },
      requests: [],
    },
    lstRates: [
      // Outside the 7.5-day window: would wreck the average if it were counted.
      { symbol: "wstETH", blockNumber: 1_100n, timestamp: at(7.75), rate: 1n },
      { symbol: "wstETH", blockNumber: 1_500n, timestamp: at(2), rate: 365_000_000n },
      { symbol: "cbETH", blockNumber: 1_500n, timestamp: at(2), rate: 365_000_000n },
      { symbol: "wstETH", blockNumber: 1_800n, timestamp: at(1), rate: 365_050_000n }, // 0.05 / 365 in a day
      { symbol: "cbETH", blockNumber: 1_800n, timestamp: at(1), rate: 365_030_000n }, // 0.03 / 365 in a day
    ],
    sharePrices: {
      latest: { blockNumber: 2_000n, timestamp: BigInt(NOW - 3_600), assetsPerShare: 1_005n * 10n ** 15n },
      windowStart: { blockNumber: 1_000n, timestamp: BigInt(NOW - 3_600 - 36.5 * DAY), assetsPerShare: E18 },
    },
    escrow: {
      address: ADDR.escrow,
      token: ADDR.kUSD,
      vault: ADDR.skUSD,
      insider: ADDR.operator,
      reads: {
        targetApyBps: 1_200n,
        tvlCap: 1_000_000n * E18,
        endsAt: BigInt(NOW + 73 * DAY),
        totalFunded: 50_000n * E18,
        totalDistributed: 10_000n * E18,
        balance: 40_000n * E18,
        totalAssets: 500_000n * E18,
        yieldVestingPeriod: 604_800n,
        insiderShares: 300_000n * E24,
        totalSupply: 500_000n * E24,
      },
      lastYield: { timestamp: at(2), assets: 500n * E18, txHash: YIELD_TX, blockNumber: 1_500n, logIndex: 3 },
      verifyVia: {
        targetApyBps: "cmd targetApyBps",
        balance: "cmd balance",
        tvlCap: "cmd tvlCap",
        totalAssets: "cmd totalAssets",
        insiderShares: "cmd insiderShares",
        yieldVestingPeriod: "cmd yieldVestingPeriod",
      },
    },
    marketPeers: [],
  };
}

/** The same world with the venue unreadable, as the reader records it. */
export function venueDown(): ApyInputs {
  const i = fixture();
  return {
    ...i,
    venue: { ...i.venue, error: "venue answered 500", hourlyFundingRates: [], predicted: [], hedgeAccount: null },
  };
}
