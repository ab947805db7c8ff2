/**
 * kusd-verify: check a kUSD signed statement, and every report, without trusting the service
 * that published it.
 * The package's public entry for every runtime (the page runs it in the browser; node.ts adds the
 * command line and reading files): the signature and binding checks (packages/core/src/attestation), the
 * read plan the service itself reads the chain with, and (rederive/, proofs/) every signed figure
 * re-derived from the reader's own RPC and checked against one block hash.
 */
export { pinnedTrust, STATEMENT_MAX_AGE_SECONDS, type Trust, trustFromBinding, verifyTrusted } from "@kusd/core";
export { type AnchorOptions, checkAnchor } from "./anchor/check-anchor.js";
export { anchorFromL1, l1Check } from "./cli/l1-anchor.js";
export type { GameSummary, L1Anchoring } from "./l1/base-block-from-l1.js";
export type { ProofReport, ReadProof } from "./proofs/read-proof.js";
export { listedAccounts, snapshotAddresses } from "./read-plan/addresses.js";
export {
  escrowReadSpecs,
  fundingWindow,
  hedgeAccountOf,
  readApyVenue,
  readEscrowViews,
  unknownVenue,
} from "./read-plan/apy-reads.js";
export {
  MINTER_ROLE,
  PSM_KEYS,
  readChainSnapshot,
  readPsmSnapshots,
  type SnapshotAddresses,
} from "./read-plan/chain-snapshot.js";
export { codePresenceSize, hasCodeAt, limitCodePresence } from "./read-plan/code-presence.js";
export { type Erc20Reads, readErc20 } from "./read-plan/erc20-reads.js";
export { ledgerPins, readLedgerRecords } from "./read-plan/hedge-ledger-reads.js";
export { historyVerifyCommands } from "./read-plan/history-reads.js";
export { boardWindows, headersOf, lastBlockAtOrBefore, readBoardVaults } from "./read-plan/honesty-index-reads.js";
export { type LendingVaults, readOccupancy } from "./read-plan/occupancy-reads.js";
export {
  abiFromCastSignature,
  BATCH_MAX_BYTES,
  batchTarget,
  ChainReadError,
  MULTICALL3,
  PinnedReader,
  type Read,
  type ReadOutcome,
  type ReadSpec,
  tolerantReads,
} from "./read-plan/pinned-reader.js";
export { readPsmGates } from "./read-plan/psm-gates-reads.js";
export { readRedemptionPlan } from "./read-plan/redemption-plan-reads.js";
export { RISK_GAP_SOURCE, readRiskChain } from "./read-plan/risk-reads.js";
export { readStats } from "./read-plan/stats-reads.js";
export { type Classification, classifyFigures, type RestingCategory, type RestingInput } from "./rederive/classify.js";
export {
  countByKind,
  FIGURE_KINDS,
  type FigureKind,
  type FigureRow,
  FigureRowSchema,
  kindSummary,
  leaves,
} from "./rederive/figure-rows.js";
export { LOG_RANGE_BLOCKS, logsInRanges } from "./rederive/logs-in-ranges.js";
export { networkOf } from "./rederive/network.js";
export { checkNetwork, NetworkMismatchError } from "./rederive/network-check.js";
export { type Check, rederivationChecks } from "./rederive/rederive-checks.js";
export { isInstantReadPayload, rederiveInstantRead } from "./rederive/rederive-instant-read.js";
export {
  type PinnedBlock,
  type Rederivation,
  RederivationError,
  type RederiveOptions,
  rederiveStatement,
} from "./rederive/rederive-statement.js";
export { DEFAULT_BRACKET_TOLERANCE, type ReaderVenue } from "./rederive/venue-bracket.js";
export { knownReports, rederiveReport, reportKindOf, verifierFor } from "./reports/registry.js";
export {
  type ReportVerdict,
  refusedVerdict,
  reportVerdict,
  verdictLines,
  verdictOnReport,
} from "./reports/report-verdict.js";
export {
  type ReaderSources,
  type ReportRederivation,
  type ReportVerifier,
  VENUE_NOW_MAX_AGE_SECONDS,
} from "./reports/report-verifier.js";
export { readAccountState, type VenueAccountState } from "./venue/account-state.js";
export { FILLS_KEPT, type FillRetention } from "./venue/fills-retention.js";
export type { FundingRate, LedgerUpdate } from "./venue/history-records.js";
export { FILLS_PAGE, MAX_PAGES, pageByTime, TIME_RANGE_PAGE } from "./venue/paging.js";
export { type Bracket, bracketEquity, type PortfolioWindow, readPortfolio } from "./venue/portfolio.js";
export {
  gateVenueRequests,
  infoRequestWeight,
  postInfo,
  VENUE_TIMEOUT_MS,
  type VenueRequestGate,
} from "./venue/post-info.js";
export { VenueReadError } from "./venue/venue-read-error.js";
export { VenueReader } from "./venue/venue-reader.js";
