/**
 * The blocks the indexer holds a history row at, and the redemptions in each, rebuilt from the
 * chain's logs as the indexer writes those rows (src/indexing/transfers.ts, psm.ts, vaults.ts and
 * ponder.config.ts): a kUSD mint or burn (kusd_supply_event), a USDC or kUSD transfer into or out
 * of a PSM that touches a registry account (registry_transfer), a redemption Swap (psm_swap), and
 * skUSD's share-price samples (every sharePriceInterval blocks of the SharePrice source once skUSD
 * has code). A series plans its points on these blocks (planPoints).
 */
import { earliest, type NetworkConfig, type RedemptionTotals, swapAmounts } from "@kusd/core";
import { type Address, type PublicClient, parseAbiItem, zeroAddress } from "viem";
import { hasCodeAt } from "../read-plan/code-presence.js";
import { LOG_RANGE_BLOCKS, logsInRanges } from "./logs-in-ranges.js";

const TRANSFER = parseAbiItem("event Transfer(address indexed from, address indexed to, uint256 value)");
const SWAP = parseAbiItem(
  "event Swap(address indexed user, address indexed fromToken, address indexed toToken, uint256 amount, uint256 fee)",
);

/** Redemptions of one block, without its time (the series reads none of theirs). */
export type BlockRedemptions = Omit<RedemptionTotals, "timestamp">;

export type HistoryBlocks = {
  /** Every block with an indexed history row up to the series' block, ascending. */
  known: bigint[];
  redemptions: BlockRedemptions[];
  samples: SharePriceSamples;
  calls: { logs: number; code: number };
};

/** skUSD's share-price samples: blocks `first`, `first + interval`, … (null: none up to the block). */
export type SharePriceSamples = { first: bigint | null; interval: bigint };

/** The latest sample at or before `block` (null: none). */
export function sampleAtOrBefore(s: SharePriceSamples, block: bigint): bigint | null {
  if (s.first === null || block < s.first) return null;
  return s.first + ((block - s.first) / s.interval) * s.interval;
}

/** The first sample block of the SharePrice source at which skUSD has code, by bisection over the samples. */
async function firstSample(client: PublicClient, n: NetworkConfig, to: bigint, calls: { code: number }) {
  const start = BigInt(earliest(...Object.values(n.stakingVaults)));
  const interval = BigInt(n.sharePriceInterval);
  const skUSD = n.stakingVaults.skUSD;
  // The indexer reads a vault only from its own start block on (vaultsAt).
  const from = BigInt(skUSD.startBlock) <= start ? 0n : (BigInt(skUSD.startBlock) - start + interval - 1n) / interval;
  const last = to < start ? -1n : (to - start) / interval;
  const has = async (k: bigint) => {
    calls.code++;
    return (await hasCodeAt(client, skUSD.address, start + k * interval)) === true;
  };
  if (from > last || !(await has(last))) return { first: null, interval };
  let [lo, hi] = [from, last];
  while (lo < hi) {
    const mid = (lo + hi) / 2n;
    if (await has(mid)) hi = mid;
    else lo = mid + 1n;
  }
  return { first: start + lo * interval, interval };
}

export async function historyBlocks(
  client: PublicClient,
  n: NetworkConfig,
  to: bigint,
  rangeBlocks = LOG_RANGE_BLOCKS,
): Promise<HistoryBlocks> {
  const psms = Object.values(n.psms);
  const psmSet = new Set(psms.map((p) => p.address.toLowerCase()));
  const listed = new Set(n.registryAccounts.map((a) => a.toLowerCase()));
  const kusd = n.kUSD.address.toLowerCase();
  const usdc = n.usdc.address.toLowerCase();
  // The KUSD source from kUSD's start block, USDC's from the earliest of kUSD and the PSMs.
  const start = new Map([
    [kusd, BigInt(n.kUSD.startBlock)],
    [usdc, BigInt(earliest(n.kUSD, ...psms))],
  ]);
  const psmAddresses = psms.map((p) => p.address);
  const logCalls = { n: 0 };
  const code = { code: 0 };
  const ranged = <T>(a: bigint, fetch: (x: bigint, y: bigint) => Promise<T[]>) =>
    logsInRanges(a, to, rangeBlocks, fetch, logCalls);
  const transfers = (token: Address, a: bigint, args: { from: Address[] } | { to: Address[] }) =>
    ranged(a, (x, y) => client.getLogs({ address: token, event: TRANSFER, args, fromBlock: x, toBlock: y }));
  const kusdEnds = [zeroAddress, ...psmAddresses];
  const [kusdOut, kusdIn, usdcOut, usdcIn, swaps, samples] = await Promise.all([
    transfers(n.kUSD.address, start.get(kusd)!, { from: kusdEnds }),
    transfers(n.kUSD.address, start.get(kusd)!, { to: kusdEnds }),
    transfers(n.usdc.address, start.get(usdc)!, { from: psmAddresses }),
    transfers(n.usdc.address, start.get(usdc)!, { to: psmAddresses }),
    ranged(BigInt(earliest(...psms)), (a, b) =>
      client.getLogs({
        address: psmAddresses,
        event: SWAP,
        args: { fromToken: n.kUSD.address },
        fromBlock: a,
        toBlock: b,
      }),
    ),
    firstSample(client, n, to, code),
  ]);
  const known = new Set<bigint>();
  for (const l of [...kusdOut, ...kusdIn, ...usdcOut, ...usdcIn]) {
    const token = l.address.toLowerCase();
    const f = (l.args.from as Address).toLowerCase();
    const t = (l.args.to as Address).toLowerCase();
    const supplyEvent = token === kusd && (f === zeroAddress || t === zeroAddress);
    const psmTransfer = (psmSet.has(f) || psmSet.has(t)) && (listed.has(f) || listed.has(t));
    if (supplyEvent || psmTransfer) known.add(l.blockNumber!);
  }
  const byBlock = new Map<bigint, BlockRedemptions>();
  for (const s of swaps) {
    const { usdcAmount, kusdAmount } = swapAmounts("redeem", s.args.amount!, s.args.fee!);
    const b = s.blockNumber!;
    const r = byBlock.get(b) ?? { blockNumber: b, count: 0, kusd: 0n, usdc: 0n };
    byBlock.set(b, { ...r, count: r.count + 1, kusd: r.kusd + kusdAmount, usdc: r.usdc + usdcAmount });
    known.add(b);
  }
  if (samples.first !== null) for (let b = samples.first; b <= to; b += samples.interval) known.add(b);
  return {
    known: [...known].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
    redemptions: [...byBlock.values()].sort((a, b) => (a.blockNumber < b.blockNumber ? -1 : 1)),
    samples,
    calls: { logs: logCalls.n, code: code.code },
  };
}
