/**
 * Alert feeds for monitors, each a block range of indexed events with stable ids:
 * `/api/events/minter-grants`, `/api/events/psm-pauses`, `/api/events/redemptions?minKusd=`.
 * A range is answered in full (these events are rare), so a monitor can re-read its reorg
 * window and notice a row that disappeared.
 */
import { Hono } from "hono";
import { getAddress, parseUnits } from "viem";
import { ApiError, badRequest, onApiError } from "../http/errors.js";
import { indexedHead, minterGrantsIn, psmPausesIn, redemptionsIn } from "../indexed/reads.js";
import type { ReportContext } from "../reports/context.js";
import { MINTER_ROLE } from "../reserves/chain-snapshot.js";
import { isoTime, toUnits } from "../../core/reserves/units.js";

export const MAX_RANGE_BLOCKS = 100_000n;

export function eventsRoutes(ctx: ReportContext) {
  const app = new Hono();
  app.onError(onApiError);

  const range = async (q: (k: string) => string | undefined) => {
    const head = await indexedHead(ctx.db, "base");
    if (!head) throw new ApiError(503, "not_indexed_yet", "the indexer has not started on base yet");
    const num = (name: string, fallback: bigint) => {
      const raw = q(name);
      if (raw === undefined || raw === "") return fallback;
      if (!/^\d{1,15}$/.test(raw)) throw badRequest(`invalid_${name}`, `${name} must be a non-negative integer block number`, { [name]: raw });
      return BigInt(raw);
    };
    const toBlock = num("toBlock", head.blockNumber);
    const fromBlock = num("fromBlock", toBlock > MAX_RANGE_BLOCKS ? toBlock - MAX_RANGE_BLOCKS : 0n);
    if (toBlock < fromBlock) throw badRequest("invalid_range", "toBlock is before fromBlock");
    if (toBlock - fromBlock > MAX_RANGE_BLOCKS) throw badRequest("range_too_large", `at most ${MAX_RANGE_BLOCKS} blocks per request`);
    return { fromBlock, toBlock, indexedHead: { blockNumber: Number(head.blockNumber), timestamp: isoTime(head.timestamp) } };
  };

  app.get("/api/events/minter-grants", async (c) => {
    const r = await range((k) => c.req.query(k));
    const rows = await minterGrantsIn(ctx.db, r.fromBlock, r.toBlock, MINTER_ROLE);
    return c.json({
      indexedHead: r.indexedHead,
      events: rows.map((e) => ({ id: e.id, kind: "minter_grant", contract: getAddress(e.contract), contractKey: e.contractKey, account: getAddress(e.account), sender: getAddress(e.sender), txHash: e.txHash, blockNumber: Number(e.blockNumber), timestamp: isoTime(Number(e.timestamp)) })),
    });
  });

  app.get("/api/events/psm-pauses", async (c) => {
    const r = await range((k) => c.req.query(k));
    const rows = await psmPausesIn(ctx.db, r.fromBlock, r.toBlock);
    return c.json({
      indexedHead: r.indexedHead,
      events: rows.map((e) => ({ id: e.id, kind: "psm_pause", psm: getAddress(e.psm), psmKey: e.psmKey, account: getAddress(e.account), txHash: e.txHash, blockNumber: Number(e.blockNumber), timestamp: isoTime(Number(e.timestamp)) })),
    });
  });

  app.get("/api/events/redemptions", async (c) => {
    const r = await range((k) => c.req.query(k));
    const minRaw = c.req.query("minKusd") ?? "0";
    if (!/^\d{1,15}(\.\d{1,18})?$/.test(minRaw)) throw badRequest("invalid_minKusd", "minKusd is a non-negative kUSD amount", { minKusd: minRaw });
    const rows = await redemptionsIn(ctx.db, r.fromBlock, r.toBlock, parseUnits(minRaw, 18));
    return c.json({
      indexedHead: r.indexedHead,
      events: rows.map((e) => ({ id: e.id, kind: "redemption", psm: getAddress(e.psm), psmKey: e.psmKey, redeemer: getAddress(e.user), kusdRedeemed: toUnits(e.kusdAmount, 18), usdcPaidOut: toUnits(e.usdcAmount, 6), feeBps: e.feeBps, txHash: e.txHash, blockNumber: Number(e.blockNumber), timestamp: isoTime(Number(e.timestamp)) })),
    });
  });

  return app;
}
