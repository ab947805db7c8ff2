/**
 * GET /api/apy re-derived from the reader's own chain and venue: the funding history over the
 * report's exact 60-day window read again from the venue; the LST observations of the 8 days
 * before the report rebuilt from the chain (lst-observations.ts); skUSD's share price at the
 * realized window's two blocks; the escrow's views at the report's block and the latest yield
 * distribution from its logs; then the service's own assembler (buildApyReport). The venue's
 * current answers (hedge account, predicted funding) are used as the report recorded them, and
 * read again while the report is young; the yield policy and peer figures are declarations.
 */
import {
  type ApyInputs,
  type ApyReport,
  ApyReportSchema,
  buildApyReport,
  type EscrowInputs,
  type MarketPeer,
  type PredictedFundings,
  type SharePriceRow,
  type VenueInputs,
  type VenueRequestPin,
} from "@kusd/core";
import { type Address, createPublicClient, type PublicClient, parseAbiItem } from "viem";
import { fundingWindow, hedgeAccountOf, readEscrowViews, unknownVenue } from "../read-plan/apy-reads.js";
import { PinnedReader } from "../read-plan/pinned-reader.js";
import { classifyFigures, type RestingInput } from "../rederive/classify.js";
import { LOG_RANGE_BLOCKS, logsInRanges } from "../rederive/logs-in-ranges.js";
import { lstObservationsFromChain } from "../rederive/lst-observations.js";
import type { Check } from "../rederive/rederive-checks.js";
import { RederivationError } from "../rederive/rederive-statement.js";
import type { VenueAccountState } from "../venue/account-state.js";
import { VenueReadError } from "../venue/venue-read-error.js";
import { VenueReader } from "../venue/venue-reader.js";
import {
  isPin,
  openPinnedChain,
  parseReport,
  type ReaderSources,
  type ReportVerifier,
  youngEnough,
} from "./report-verifier.js";

const YIELD_DISTRIBUTED = parseAbiItem(
  "event YieldDistributed(address indexed strategist, uint256 amount, uint256 totalVesting, uint256 vestStart)",
);

type Pins = ApyReport["pins"];

/** The pinned request of `type`, or why the pins cannot be re-read. */
function pinned(pins: Pins, type: string): VenueRequestPin {
  const r = pins.venue?.requests.find((q) => q.request.type === type);
  if (!r) throw new RederivationError("report_unreadable", `the report's pins name no ${type} request`);
  return r;
}

type VenueSide = { inputs: VenueInputs; now: VenueInputs | null; answeredAtMs: number | null; checks: Check[] };

/** The venue as the report used it: the funding window read again, the current answers as recorded (and read again while young). */
async function venueSide(pins: Pins, s: ReaderSources, now: number): Promise<VenueSide> {
  const n = s.network;
  const v = pins.venue;
  if (!v || v.failed !== null || v.url === null)
    return { inputs: unknownVenue(n, v?.failed ?? "venue not configured"), now: null, answeredAtMs: null, checks: [] };
  if (!s.venue)
    throw new VenueReadError("no venue endpoint to read the funding history from: pass --venue <URL>", {
      url: "",
      request: "fundingHistory",
    });
  const history = pinned(pins, "fundingHistory");
  const predicted = pinned(pins, "predictedFundings");
  const account = pinned(pins, "clearinghouseState");
  const { coin, startTime, endTime } = history.request as { coin: string; startTime: number; endTime: number };
  const reader = new VenueReader(s.venue.url);
  const rates = await reader.fundingHistory(coin, startTime, endTime);
  const base = {
    name: n.reporting.venue.name,
    url: v.url,
    account: v.account,
    coin: n.reporting.venue.coin,
    error: null,
    hourlyFundingRates: rates.map((r) => r.rate),
    requests: [],
  };
  const inputs: VenueInputs = {
    ...base,
    predicted: predicted.answer as PredictedFundings,
    hedgeAccount: hedgeAccountOf(account.answer as VenueAccountState),
  };
  const young = youngEnough(account.receivedAtMs, s);
  const again = young
    ? {
        ...base,
        predicted: await reader.predictedFundings(base.coin),
        hedgeAccount: hedgeAccountOf(await reader.accountState(v.account)),
      }
    : null;
  const w = fundingWindow(now);
  const checks: Check[] = [
    {
      name: "funding window",
      ok: startTime === w.startMs && endTime === w.endMs,
      detail:
        startTime === w.startMs && endTime === w.endMs
          ? `${rates.length} hourly ${coin} rates from ${s.venue.url} over ${new Date(startTime).toISOString()} to ${new Date(endTime).toISOString()}, the 60 days before the report (the report read ${history.records})`
          : `the pinned window ${startTime}–${endTime} ms is not the 60 days before the report's time (${w.startMs}–${w.endMs})`,
    },
  ];
  return { inputs, now: again, answeredAtMs: account.venueTimeMs ?? account.receivedAtMs, checks };
}

/** skUSD's share price at a block: convertToAssets of one whole share (1e24 units) and the block's time. */
async function sharePriceAt(client: PublicClient, n: ReaderSources["network"], block: number): Promise<SharePriceRow> {
  const r = new PinnedReader(client, BigInt(block), n.reporting.publicRpc.base);
  const [assetsPerShare, timestamp] = await Promise.all([
    r.call<bigint>({
      to: n.stakingVaults.skUSD.address,
      signature: "convertToAssets(uint256)(uint256)",
      args: [10n ** 24n],
    }),
    client.getBlock({ blockNumber: BigInt(block) }).then((b) => b.timestamp),
  ]);
  return { blockNumber: BigInt(block), timestamp, assetsPerShare };
}

/** The latest YieldDistributed into skUSD at or before `block`, from the logs (from the pinned one on, when there is one). */
async function lastYieldFromLogs(
  client: PublicClient,
  n: ReaderSources["network"],
  pinnedYield: Pins["lastYield"],
  block: bigint,
): Promise<EscrowInputs["lastYield"]> {
  const vault = n.stakingVaults.skUSD.address;
  const from = BigInt(pinnedYield?.blockNumber ?? n.stakingVaults.skUSD.startBlock);
  const logs = await logsInRanges(
    from,
    block,
    LOG_RANGE_BLOCKS,
    (a, b) => client.getLogs({ address: vault, event: YIELD_DISTRIBUTED, fromBlock: a, toBlock: b }),
    { n: 0 },
  );
  const last = logs.sort((a, b) => Number(a.blockNumber! - b.blockNumber!) || a.logIndex! - b.logIndex!).at(-1);
  if (!last) return null;
  const header = await client.getBlock({ blockNumber: last.blockNumber! });
  return {
    timestamp: header.timestamp,
    assets: last.args.amount ?? null,
    txHash: last.transactionHash!,
    blockNumber: last.blockNumber!,
    logIndex: last.logIndex!,
  };
}

/** The contracts the report names: each must be one the reader's network document names. */
function namedContracts(r: ApyReport): Address[] {
  return [r.incentive, r.genesisCohort]
    .flatMap((x) => (x ? [x.escrowAddress, x.escrowToken, x.eligibleVault] : []))
    .filter((a): a is Address => typeof a === "string");
}

const perturbedPeer: MarketPeer = {
  key: "probe",
  protocol: "probe",
  asset: "probe",
  chain: "probe",
  apyPct: 99,
  tvlUsd: null,
  basis: "probe",
  source: "probe",
  sourceUrl: "probe",
  firstPartyUrl: null,
  measuredAt: null,
};

export const apyVerifier: ReportVerifier = {
  report: "apy",
  path: "/api/apy",
  async rederive(input, s) {
    const published = parseReport(ApyReportSchema, input, "/api/apy");
    const pins = published.pins;
    const now = Date.parse(published.timestamp) / 1000;
    const { transport, block, reader } = await openPinnedChain(pins, s, namedContracts(published));
    const plain = createPublicClient({ transport }) as PublicClient;
    const n = s.network;
    const escrowAddress = n.reporting.incentiveEscrow;
    const r = published.realized;
    const [venue, lst, sharePrices, escrow] = await Promise.all([
      venueSide(pins, s, now),
      lstObservationsFromChain(plain, n, now, block.number),
      r.fromBlock !== null && r.toBlock !== null
        ? Promise.all([sharePriceAt(plain, n, r.toBlock), sharePriceAt(plain, n, r.fromBlock)]).then(
            ([latest, windowStart]) => ({ latest, windowStart }),
          )
        : { latest: null, windowStart: null },
      escrowAddress
        ? Promise.all([
            readEscrowViews(reader, n, escrowAddress),
            lastYieldFromLogs(plain, n, pins.lastYield, block.number),
          ]).then(
            ([views, lastYield]): EscrowInputs => ({
              address: escrowAddress,
              token: n.kUSD.address,
              vault: n.stakingVaults.skUSD.address,
              insider: n.reporting.operator,
              ...views,
              lastYield,
            }),
          )
        : null,
    ]);
    const inputs: ApyInputs = {
      now,
      blockNumber: block.number,
      pinned: {
        chainId: n.chains.base.id,
        documentSha256: n.documentSha256,
        block: { number: Number(block.number), hash: block.hash, timestamp: block.timestamp },
      },
      commandRpcUrl: n.reporting.publicRpc.base,
      policy: n.yieldPolicy,
      lsts: n.lsts,
      venue: venue.inputs,
      lstRates: lst.rows,
      sharePrices,
      escrow,
      marketPeers: published.marketContext.peers,
    };
    const answered = venue.answeredAtMs === null ? "no answer" : new Date(venue.answeredAtMs).toISOString();
    const resting: RestingInput<ApyInputs>[] = [
      {
        category: "declared",
        perturb: [
          (i) => ({
            ...i,
            policy: {
              strategyCostFraction: i.policy.strategyCostFraction + 0.05,
              insuranceAllocation: i.policy.insuranceAllocation + 0.05,
              protocolFee: i.policy.protocolFee + 0.05,
              feePhase: `${i.policy.feePhase}-probe`,
            },
          }),
        ],
        note: "declared in the network document (kusd.yieldPolicy)",
      },
      {
        category: "declared",
        perturb: [
          (i) => ({ ...i, marketPeers: [perturbedPeer, ...i.marketPeers] }),
          (i) => ({ ...i, marketPeers: [] }),
        ],
        note: "declared in the service's configuration (KUSD_MARKET_PEERS), as the report publishes it",
      },
      {
        category: "venue-now",
        perturb: [
          (i) => ({ ...i, venue: { ...i.venue, hedgeAccount: null } }),
          (i) => ({
            ...i,
            venue: {
              ...i.venue,
              hedgeAccount: i.venue.hedgeAccount && {
                equityUsd: i.venue.hedgeAccount.equityUsd * 2 + 1,
                notionalUsd: i.venue.hedgeAccount.notionalUsd * 3 + 1,
                positions: i.venue.hedgeAccount.positions.map((p) => ({ size: p.size * 2 + 1 })),
              },
            },
          }),
          (i) => ({ ...i, venue: { ...i.venue, predicted: [] } }),
        ],
        note: `clearinghouseState and predictedFundings as the venue answered at ${answered}: ${venue.now ? "read again now, shown beside" : "current state only, older than the re-read age: as recorded"}`,
        now: venue.now && { ...inputs, venue: venue.now },
      },
    ];
    const rows = classifyFigures<ApyInputs>({
      published,
      inputs,
      build: buildApyReport,
      resting,
      withoutReads: (i) => ({
        ...i,
        venue: unknownVenue(n, "no reads"),
        lstRates: [],
        sharePrices: { latest: null, windowStart: null },
        escrow: i.escrow && {
          ...i.escrow,
          lastYield: null,
          reads: Object.fromEntries(Object.keys(i.escrow.reads).map((k) => [k, null])) as EscrowInputs["reads"],
        },
      }),
      skip: isPin,
    });
    const mine = new Set(lst.rows.map((o) => `${o.symbol}@${o.blockNumber}`));
    const theirs = new Set(pins.lstObservations.map((o) => `${o.symbol}@${o.blockNumber}`));
    const missing = [...mine].filter((x) => !theirs.has(x));
    const extra = [...theirs].filter((x) => !mine.has(x));
    return {
      report: "apy",
      unproven: {
        figures: "all",
        source:
          "the LST observations and the latest yield from eth_getLogs, and skUSD's share price at the window's blocks",
      },
      block,
      rows,
      failedReads: [],
      checks: [
        ...venue.checks,
        {
          name: "lst observations",
          ok: missing.length === 0 && extra.length === 0,
          detail:
            missing.length === 0 && extra.length === 0
              ? `${mine.size} observations from block ${lst.fromBlock} (the first at or after ${new Date((now - 8 * 86_400) * 1000).toISOString()}) to ${block.number}, as the report pins them (${lst.calls.logs} eth_getLogs, ${lst.calls.reads} feed reads)`
              : `the chain has observations the report leaves out (${missing.join(", ") || "none"}) and the report pins some the chain lacks (${extra.join(", ") || "none"})`,
        },
      ],
    };
  },
};
