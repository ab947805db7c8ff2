/**
 * GET /api/risk-status re-derived from the reader's own RPC: the configuration getters and the
 * source-named getter probes read at the report's block (pinned by its hash) with the service's
 * read plan, the role holders rebuilt from the RoleGranted / RoleRevoked logs up to the block, and
 * the service's own assembler (buildRiskStatus). The off-chain triggers rest on what no block
 * proves: the venue's clearinghouseState answer (venue-now: as recorded in the pins, read again
 * while the report is young), and the service's clock and the signed time of its latest
 * statement (declared: the service's own record).
 */
import {
  buildRiskStatus,
  type OffChainInputs,
  offChainInputsOf,
  offChainTriggers,
  type RiskStatus,
  RiskStatusSchema,
} from "@kusd/core";
import { type Address, createPublicClient, type PublicClient } from "viem";
import { RISK_GAP_SOURCE, readRiskChain } from "../read-plan/risk-reads.js";
import { classifyFigures, type RestingInput } from "../rederive/classify.js";
import { roleHoldersFromLogs } from "../rederive/role-holders-from-logs.js";
import { readAccountState } from "../venue/account-state.js";
import { VenueReadError } from "../venue/venue-read-error.js";
import {
  isPin,
  openPinnedChain,
  parseReport,
  type ReaderSources,
  type ReportVerifier,
  youngEnough,
} from "./report-verifier.js";

/** Every contract the report names: each must be one the reader's network document names. */
const namedContracts = (r: RiskStatus): Address[] => [
  ...new Set([...r.triggers.onChain.map((t) => t.contract), ...r.gaps.map((g) => g.contract)]),
];

/** The venue's answer read again now, when the report is young and the reader has a venue. */
async function venueNow(recorded: OffChainInputs, r: RiskStatus, s: ReaderSources): Promise<OffChainInputs | null> {
  const answer = r.pins.venue?.requests.find((q) => q.request.type === "clearinghouseState");
  if (!s.venue || !answer || !youngEnough(answer.receivedAtMs, s)) return null;
  try {
    const state = await readAccountState(s.venue.url, recorded.venueAccount as Address);
    return { ...recorded, venue: { equityUsd: state.equityUsd, timeMs: state.time }, now: Math.floor(s.nowMs / 1000) };
  } catch (e) {
    if (e instanceof VenueReadError)
      return { ...recorded, venue: null, venueReason: `venue read failed: ${e.message}` };
    throw e;
  }
}

export const riskStatusVerifier: ReportVerifier = {
  report: "risk-status",
  path: "/api/risk-status",
  async rederive(input, s) {
    const published = parseReport(RiskStatusSchema, input, "/api/risk-status");
    const pins = published.pins;
    const n = s.network;
    const { transport, block, reader } = await openPinnedChain(pins, s, namedContracts(published));
    const roles = await roleHoldersFromLogs(createPublicClient({ transport }) as PublicClient, n, block.number);
    const chain = await readRiskChain(reader, n, roles.holdersOf);
    const recorded = offChainInputsOf(pins);
    type Inputs = { offChain: OffChainInputs };
    const build = (i: Inputs) =>
      buildRiskStatus({
        blockNumber: block.number,
        timestamp: block.timestamp,
        onChain: chain.onChain,
        offChain: offChainTriggers(i.offChain),
        gaps: chain.gaps,
        gapSource: RISK_GAP_SOURCE,
        failedReads: chain.failedReads,
        notDeployed: chain.notDeployed,
        pins,
      });
    const now = await venueNow(recorded, published, s);
    const answered = recorded.venue?.timeMs == null ? "no answer" : new Date(recorded.venue.timeMs).toISOString();
    const resting: RestingInput<Inputs>[] = [
      {
        category: "venue-now",
        perturb: [
          (i) => ({ offChain: { ...i.offChain, venue: null, venueReason: `${i.offChain.venueReason ?? ""} (probe)` } }),
          (i) => ({
            offChain: {
              ...i.offChain,
              venue: {
                equityUsd: (i.offChain.venue?.equityUsd ?? 0) * 2 + 1,
                timeMs: (i.offChain.venue?.timeMs ?? i.offChain.now * 1000) - 3_600_000,
              },
            },
          }),
          (i) => ({ offChain: { ...i.offChain, atHead: !i.offChain.atHead } }),
        ],
        note: `clearinghouseState as the venue answered at ${answered} (current state only): ${now ? "read again now, shown beside" : "as recorded in the pins"}; judged only at the indexed head`,
        now: now && { offChain: now },
      },
      {
        category: "declared",
        perturb: [
          (i) => ({
            offChain: {
              ...i.offChain,
              statementSignedAt: i.offChain.statementSignedAt === null ? i.offChain.now : null,
            },
          }),
          (i) => ({ offChain: { ...i.offChain, now: i.offChain.now + 1_000_000 } }),
        ],
        note: "the service's own record (pins.offChain): its clock when it judged the off-chain triggers and the signed time of its latest published statement; no chain read gives them (check the statement itself with kusd-verify)",
      },
    ];
    const rows = classifyFigures<Inputs>({ published, inputs: { offChain: recorded }, build, resting, skip: isPin });
    const roleFigures = published.triggers.onChain.flatMap((t, i) =>
      t.kind === "role" ? [`triggers.onChain[${i}].value`] : [],
    );
    const roleRows = rows.filter((r) => roleFigures.some((f) => r.figure.startsWith(f)));
    return {
      report: "risk-status",
      block,
      rows,
      failedReads: chain.failedReads,
      unproven: {
        figures: roleRows.map((r) => r.figure),
        source: "the role holders, from RoleGranted / RoleRevoked logs (eth_getLogs)",
      },
      checks: [
        {
          name: "role holders",
          ok: roleRows.every((r) => r.kind !== "differs"),
          detail: `${roleFigures.length} roles' holders rebuilt from RoleGranted / RoleRevoked up to block ${block.number} (${roles.logCalls} eth_getLogs)`,
        },
      ],
    };
  },
};
