/**
 * GET /api/por/accounts/violations re-derived from the reader's own RPC: every violation up to the
 * indexed head rebuilt from the chain's logs as the indexer folds them (violations-from-logs.ts),
 * the page's window (its cursor, block range and limit, as its pins name them) cut from that whole
 * list with the service's own selection, and the page assembled again (buildViolationPage).
 * A page is a window: the violations it holds are compared one by one, and the list's length
 * beside, so a violation left out is named even at a page's end.
 */
import {
  buildViolationPage,
  type ViolationPage,
  ViolationPageSchema,
  violationsInWindow,
  windowOfPins,
} from "@kusd/core";
import { createPublicClient, type PublicClient } from "viem";
import { classifyFigures } from "../rederive/classify.js";
import { RederivationError } from "../rederive/rederive-statement.js";
import { violationsFromLogs } from "../rederive/violations-from-logs.js";
import { isPin, openPinnedChain, type ReportVerifier } from "./report-verifier.js";

export const violationsVerifier: ReportVerifier = {
  report: "violations",
  path: "/api/por/accounts/violations",
  async rederive(input, s) {
    const parsed = ViolationPageSchema.safeParse(input);
    if (!parsed.success)
      throw new RederivationError(
        "report_unreadable",
        `not a /api/por/accounts/violations page: ${parsed.error.issues[0]?.path.join(".")}: ${parsed.error.issues[0]?.message}`,
      );
    const published: ViolationPage = parsed.data;
    const pins = published.pins;
    const tokens = [...new Set(published.violations.map((v) => v.token))];
    const { transport, block } = await openPinnedChain(pins, s, tokens);
    const plain = createPublicClient({ transport }) as PublicClient;
    const whole = await violationsFromLogs(plain, s.network, { number: block.number, timestamp: block.timestamp });
    const window = windowOfPins(pins.window);
    const page = violationsInWindow(whole.rows, window);
    const build = (r: typeof page) =>
      buildViolationPage({
        indexedHead: { blockNumber: block.number, timestamp: block.timestamp },
        rows: r,
        window,
        pins,
      });
    const rows = classifyFigures({ published, inputs: page, build, resting: [], skip: isPin });
    const ids = new Set(published.violations.map((v) => v.id));
    const mine = new Set(page.map((v) => v.id));
    const missing = page.filter((v) => !ids.has(v.id)).map((v) => `${v.id} (block ${v.blockNumber})`);
    const extra = published.violations.filter((v) => !mine.has(v.id)).map((v) => v.id);
    return {
      report: "violations",
      unproven: { figures: "all", source: "the transfers and role changes from eth_getLogs" },
      block,
      rows,
      failedReads: [],
      checks: [
        {
          name: "violations",
          ok: missing.length === 0 && extra.length === 0,
          detail:
            missing.length === 0 && extra.length === 0
              ? `${whole.rows.length} violations up to block ${block.number} rebuilt from the logs (${whole.calls.logs} eth_getLogs, ${whole.calls.headers} headers); this page holds ${page.length} of them`
              : `the logs give violations the page leaves out (${missing.join(", ") || "none"}) and the page holds some the logs do not (${extra.join(", ") || "none"})`,
        },
      ],
    };
  },
};
