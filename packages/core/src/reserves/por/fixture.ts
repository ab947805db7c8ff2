/**
 * Hand-made inputs for the report's tests, in round numbers so every expected figure can be
 * computed by hand (the figures are worked out in the comments). Not used by the service.
 */

import { type Address, parseEther, parseUnits } from "viem";
import type { PorInputs } from "./por-report.js";
import type { PrecedentRedemption } from "./precedent.js";
import type { ChainSnapshot, Read } from "./snapshot.js";
import { none } from "./venue-read.js";

export const A = (n: number) => `0x${n.toString(16).padStart(40, "0")}` as Address;
export const R = <T>(value: T): Read<T> => ({ value, command: (f) => `cast call … # ${f} = ${String(value)}` });
export const usdc = (x: number) => parseUnits(String(x), 6);
export const kusd = (x: number) => parseEther(String(x));
export const FOUNDER = A(100);
export const EXTERNAL = A(101);

const psm = (n: number, u: number, k: number, minter: boolean) => ({
  address: A(n),
  usdc: R(usdc(u)),
  kusd: R(kusd(k)),
  holdsMinterRole: R(minter),
  paused: R(false),
  fees: {
    version: "live" as const,
    tiers: [{ threshold: usdc(50_000), feeBps: 8n }],
    swapFeeBps: 10n,
    virtualPegEnabled: false,
    virtualPegFeeBps: 0n,
  },
});
const vault = (n: number, weth: number, off: number, l1: number, hedge: number, supply: number) => ({
  address: A(n),
  shareDecimals: R(21),
  totalAssets: R(parseEther(String(weth + off + l1 + hedge))),
  totalSupply: R(parseEther(String(supply))),
  wethBalance: R(parseEther(String(weth))),
  offChainAssets: R(parseEther(String(off))),
  l1Assets: R(parseEther(String(l1))),
  hedgingReserve: R(parseEther(String(hedge))),
});
const staking = (n: number, assets: number, supplyRaw: bigint, listed: bigint, redeemable: number) => ({
  address: A(n),
  shareDecimals: R(24),
  totalAssets: R(kusd(assets)),
  totalSupply: R(supplyRaw),
  kusdBalance: R(kusd(assets)),
  redeemable: R(kusd(redeemable)),
  assetsPerShare: R(kusd(1)),
  listedShares: [{ account: FOUNDER, shares: R(listed) }],
});

export function snapshot(over: Partial<ChainSnapshot> = {}): ChainSnapshot {
  return {
    blockNumber: 1000n,
    blockTimestamp: 1_790_000_000,
    notDeployed: [],
    // 1,000,000 kUSD supply; 100,000 of it sits in the PSMs → 900,000 outstanding.
    kusdTotalSupply: R(kusd(1_000_000)),
    // 900,000 USDC in the PSMs: psmSolvencyRatio exactly 1.
    psms: {
      psmMint: psm(1, 500_000, 40_000, true),
      psmRetiredMint: psm(2, 300_000, 30_000, false),
      psmRedeemReserve: psm(3, 100_000, 30_000, false),
    },
    // Vault v1: 10 WETH + 2 off-chain + 5 mirror + 1 hedging = 18 ETH = 36,000 USD at 2,000.
    vaultV1: vault(10, 10, 2, 5, 1, 18),
    // Vault v2: 3 ETH, all mirror, no shares.
    vaultV2: vault(11, 0, 0, 3, 0, 0),
    // skUSD: 400,000 kUSD over 390,000 shares (24 decimals); the founder holds 300,000 shares.
    skUSD: staking(12, 400_000, 390_000n * 10n ** 24n, 300_000n * 10n ** 24n, 400_000),
    // Superseded vault: 100 kUSD, 850,000 raw shares, 600,000 of them the registry's, 60 kUSD redeemable.
    skUSDDeprecated: staking(13, 100, 850_000n, 600_000n, 60),
    // Insurance fund 10,000 USDC + 1 WETH = 12,000 USD.
    insuranceFund: { address: A(20), usdc: R(usdc(10_000)), weth: R(parseEther("1")) },
    treasury: { address: A(21), usdc: R(usdc(5)), weth: R(0n) },
    multisig: { address: A(22), usdc: R(usdc(1_000)), weth: R(0n), threshold: R(2n), owners: R([A(1), A(2), A(3)]) },
    // The founder: 50,000 kUSD in the wallet, 20,000 escrowed as lending collateral.
    operator: { address: FOUNDER, kusd: R(kusd(50_000)), escrowShares: R(kusd(20_000)), escrowKusd: R(kusd(20_000)) },
    hedgeWatchOnly: null,
    ethUsd: { answer: R(2_000n * 10n ** 8n), decimals: 8, updatedAt: 1_790_000_000, address: A(30) },
    failedReads: [],
    ...over,
  };
}

const isRead = (x: unknown): boolean => typeof x === "object" && x !== null && "value" in x && "command" in x;
function failReads(x: unknown): unknown {
  if (isRead(x)) return null;
  if (Array.isArray(x)) return x.map(failReads);
  if (typeof x === "object" && x !== null)
    return Object.fromEntries(Object.entries(x).map(([k, y]) => [k, failReads(y)]));
  return x;
}
/** The snapshot of an RPC that answered nothing: every read null, addresses and block kept. */
export const allReadsFailed = (s: ChainSnapshot): ChainSnapshot => failReads(s) as ChainSnapshot;

/** A redemption of 1,000 kUSD for 999 USDC (10 bps) against the live mint PSM. */
export const redemption = (user: Address, id: string): PrecedentRedemption => ({
  id,
  psmKey: "psmMint",
  psm: A(1),
  user,
  usdcAmount: usdc(999),
  kusdAmount: kusd(1_000),
  feeBps: 10,
  kusdBurned: 0n,
  txHash: `0x${id.padStart(64, "0")}`,
  blockNumber: 900n,
  timestamp: 1_789_000_000n,
});

export const REGISTRY: PorInputs["precedent"]["registry"] = [
  {
    registry_version: 1,
    issued_at: 0,
    as_of: "2026-05-14",
    disclosed_venue_deposits: [],
    entries: [
      {
        address: FOUNDER,
        kind: "eoa",
        chain: "base",
        role: "venue_margin",
        venue: "hyperliquid",
        label: "operator",
        holds_protocol_funds: true,
        backs_kusd: false,
        ref: "operator",
      },
    ],
  },
];

/** Venue equity 20,000 USD by default (above the 10,000 USD mirror); null = the venue read failed. */
export function inputs(
  snap = snapshot(),
  venueEquityUsd: number | null = 20_000,
  redemptions: PrecedentRedemption[] = [],
): PorInputs {
  return {
    blockHash: `0x${"0b".repeat(32)}`,
    chainId: 8453,
    documentSha256: `0x${"d0".repeat(32)}`,
    snapshot: snap,
    venue: {
      ...(venueEquityUsd === null
        ? none("venue read failed")
        : {
            source: "live" as const,
            state: { equityUsd: venueEquityUsd, time: null },
            reason: null,
            ageSeconds: 1,
            recorded: null,
            receivedAtMs: null,
          }),
      url: "http://venue/info",
      account: FOUNDER,
      readCommand: "curl …",
    },
    precedent: {
      redemptions,
      registry: REGISTRY,
      kusdBurned: 0n,
      completeAsOf: { blockNumber: 1000n, timestamp: 1_790_000_000 },
      kusd: A(40),
      fromBlock: 1,
      rpcUrl: "http://rpc",
    },
    registry: [],
    addresses: { kUSD: A(40), usdc: A(41), weth: A(42), ethUsdFeed: A(30) },
    listed: [{ address: FOUNDER, kind: "eoa", role: "venue_margin" }],
    rpcChainLength: 1000,
    canonicalEndpoint: "http://site/api/por",
    commandRpcUrl: "http://rpc",
    indexedHead: { blockNumber: 1000n, timestamp: 1_790_000_000 },
    atHead: true,
  };
}
