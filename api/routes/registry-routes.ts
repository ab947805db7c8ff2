/**
 * The account registry (`/api/por/accounts`, the operator's path for it, `?version=N` for any
 * published version) and its violations (`/api/por/accounts/violations`).
 */
import { Hono } from "hono";
import { getAddress } from "viem";
import { ApiError, badRequest, onApiError } from "../http/errors.js";
import { indexedHead, violationsAfter, type IndexedViolation } from "../indexed/reads.js";
import type { RegistryService } from "../registry/registry-service.js";
import type { ReportContext } from "../reports/context.js";
import { isoTime, toUnits, tokenDecimals } from "../../core/reserves/units.js";

export const MAX_VIOLATIONS_PAGE = 1_000;

/** The published shape of one violation; `cursor` resumes a listing right after it. */
export function violationView(v: IndexedViolation) {
  const decimals = tokenDecimals(v.tokenSymbol);
  return {
    id: v.id,
    cursor: `${v.blockNumber}:${v.logIndex}`,
    token: getAddress(v.token),
    tokenSymbol: v.tokenSymbol,
    amount: toUnits(v.amount, decimals),
    amountRaw: v.amount.toString(),
    decimals,
    from: getAddress(v.from),
    to: getAddress(v.to),
    txHash: v.txHash,
    blockNumber: Number(v.blockNumber),
    logIndex: v.logIndex,
    timestamp: isoTime(Number(v.timestamp)),
    registryVersion: v.registryVersion,
  };
}

const parseBlock = (name: string, raw: string | undefined, fallback: bigint) => {
  if (raw === undefined || raw === "") return fallback;
  if (!/^\d{1,15}$/.test(raw)) throw badRequest(`invalid_${name}`, `${name} must be a non-negative integer block number`, { [name]: raw });
  return BigInt(raw);
};

export function registryRoutes(ctx: ReportContext, registry: RegistryService) {
  const app = new Hono();
  app.onError(onApiError);

  app.get("/api/por/accounts", async (c) => {
    const raw = c.req.query("version");
    if (raw !== undefined && !/^[1-9]\d{0,5}$/.test(raw)) throw badRequest("invalid_version", "version must be a positive integer", { version: raw });
    return c.json(await registry.version(raw === undefined ? undefined : Number(raw)));
  });

  app.get("/api/por/accounts/versions", async (c) => {
    const docs = await registry.all();
    return c.json({
      versions: [...docs.values()].map((d) => ({ registry_version: d.registry.registry_version, as_of: d.registry.as_of, issued_at: d.registry.issued_at, entries: d.registry.entries.length, account_set_digest: d.registry.account_set_digest })),
    });
  });

  app.get("/api/por/accounts/violations", async (c) => {
    const head = await indexedHead(ctx.db, "base");
    if (!head) throw new ApiError(503, "not_indexed_yet", "the indexer has not started on base yet");
    const limitRaw = c.req.query("limit") ?? "100";
    if (!/^\d{1,4}$/.test(limitRaw) || Number(limitRaw) < 1 || Number(limitRaw) > MAX_VIOLATIONS_PAGE) {
      throw badRequest("invalid_limit", `limit must be an integer from 1 to ${MAX_VIOLATIONS_PAGE}`, { limit: limitRaw });
    }
    const afterRaw = c.req.query("after");
    let after: { block: bigint; logIndex: number } | null = null;
    if (afterRaw !== undefined) {
      const m = /^(\d{1,15}):(\d{1,9})$/.exec(afterRaw);
      if (!m) throw badRequest("invalid_cursor", "after must be a cursor of the form <block>:<logIndex>", { after: afterRaw });
      after = { block: BigInt(m[1]!), logIndex: Number(m[2]) };
    }
    const fromBlock = parseBlock("fromBlock", c.req.query("fromBlock"), 0n);
    const toBlock = parseBlock("toBlock", c.req.query("toBlock"), head.blockNumber);
    if (toBlock < fromBlock) throw badRequest("invalid_range", "toBlock is before fromBlock", { fromBlock: Number(fromBlock), toBlock: Number(toBlock) });
    const rows = await violationsAfter(ctx.db, { after, fromBlock, toBlock, limit: Number(limitRaw) });
    const views = rows.map(violationView);
    return c.json({
      indexedHead: { blockNumber: Number(head.blockNumber), timestamp: isoTime(head.timestamp) },
      rule: "spec 2.6 rule 2: a transfer from a listed account to an address neither listed, a user redemption or withdrawal, a same-transaction flash-loan leg, a burn, nor a disclosed venue deposit (see /api/por/accounts violation_predicate)",
      violations: views,
      next: views.length === Number(limitRaw) ? views.at(-1)!.cursor : null,
    });
  });

  return app;
}
