/**
 * What the hedge ledger publishes beside its figures: the venue requests that reproduce them
 * (as curl commands) and the methodology (rule 6: closed PnL is one leg of a hedge, not profit).
 */
import type { Address } from "viem";
import { shellQuote } from "../../shell-quote.js";
import type { LedgerReplay } from "./hedge-ledger-schema.js";

export type LedgerSource = {
  /** Full `/info` endpoint of the venue, or null when none is configured. */
  infoUrl: string | null;
  venue: string;
  account: Address;
  coin: string;
  sinceMs: number;
  untilMs: number;
};

const curl = (url: string, body: Record<string, unknown>, note: string) =>
  `curl -s -X POST ${url} -H 'content-type: application/json' -d ${shellQuote(JSON.stringify(body))}  # ${note}`;

/** The exact `POST /info` bodies behind the figures (first page; later pages move startTime). */
export function replayRequests(src: LedgerSource): LedgerReplay {
  const range = { startTime: src.sinceMs, endTime: src.untilMs };
  const writeup =
    "Page each request: the venue returns at most 500 records (2,000 fills), so repeat it with startTime = (largest time in the page) + 1 until a page has fewer. The venue keeps only an account's 10,000 most recent fills (fillsRetention). " +
    "fundingUsd = Σ delta.usdc (signed, + received); positionHours = Σ (delta.nSamples ?? 1); notionalHoursUsd = Σ |delta.usdc / delta.fundingRate|; " +
    "feesUsd = Σ fee and closedPnlUsd = Σ closedPnl over the fills; bucket each record by the UTC month of its time. " +
    "fundingHistory gives the venue's public hourly rates over the same window, to check the account's rates against.";
  if (src.infoUrl === null)
    return {
      userFunding: null,
      userFills: null,
      fundingHistory: null,
      writeup: `No venue URL is configured. ${writeup}`,
    };
  return {
    userFunding: curl(
      src.infoUrl,
      { type: "userFunding", user: src.account, ...range },
      "funding payments, delta.usdc signed (+ received)",
    ),
    userFills: curl(
      src.infoUrl,
      { type: "userFillsByTime", user: src.account, ...range },
      "fills, newest first within a page: fee, closedPnl",
    ),
    fundingHistory: curl(
      src.infoUrl,
      { type: "fundingHistory", coin: src.coin, ...range },
      "the venue's hourly funding rates for the hedged coin",
    ),
    writeup,
  };
}

export const HEDGE_LEDGER_METHODOLOGY =
  "Realized ledger of the operator's hedge account on the venue, from the venue's own records since 2026-05-14 (UTC months). " +
  "fundingUsd is the signed sum of funding payments (negative funding subtracts; never clamped). feesUsd is the sum of trading fees, closedPnlUsd the sum of realized PnL on position reductions. " +
  "netUsd = fundingUsd + closedPnlUsd − feesUsd. closedPnlUsd is one leg of a hedge: the short's losses and gains offset the spot collateral it hedges, which is not in this ledger, so netUsd is not profit. " +
  "The funding carry is fundingUsd against the notional held: annualisedOnNotional = fundingUsd / notionalHoursUsd × 8760. " +
  "Records of every coin in the account are included; nothing is estimated when the venue cannot be read (figures are then null).";
