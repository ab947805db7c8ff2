/**
 * The unpaid reserves endpoints: /api/por, /api/stats, the signed statement and its history,
 * the signer binding, and the redemption planner. Every error is JSON with a stable code.
 */
import { Hono } from "hono";
import { parseUnits, type Address, type Hex } from "viem";
import { z } from "zod";
import { PublishedStatementSchema, SignerRegistrySchema, StatementHistorySchema, type PublishedStatement } from "../../core/attestation/published-schema.js";
import { limitParam } from "../http/query-params.js";
import { contract, validQuery } from "../http/route-contract.js";
import type { StatementService } from "../attestation/statement-service.js";
import { ApiError, badRequest, onApiError } from "../http/errors.js";
import { resolveReportBlock, type ReportContext } from "../reports/context.js";
import { PSM_KEYS } from "../reserves/chain-snapshot.js";
import { loadPorReport, readPsms } from "../reserves/por-service.js";
import { planRedemption } from "../../core/reserves/redemption-routing.js";
import { loadStats } from "../reserves/stats.js";
import { toUnits } from "../../core/reserves/units.js";
import { ChainReadError, PinnedReader } from "../chain/pinned-reader.js";
import type { PsmKey } from "../../core/network/types.js";
import { MAX_LIST_LIMIT } from "../store/operator-store.js";

export type PorRoutesOptions = {
  ctx: ReportContext;
  statements: StatementService;
  /** Bearer token that allows POST /api/por/signed (issue on demand); unset disables it. */
  adminToken?: string;
};

const published = (artifact: string) => JSON.parse(artifact) as PublishedStatement;

const TAGS = ["Reserves"];
const STATEMENT_TAGS = ["Signed statements"];

export const signedContract = {
  summary: "The latest signed reserves statement (EIP-191 over the SHA-256 of its canonical payload)",
  tags: STATEMENT_TAGS,
  response: PublishedStatementSchema,
  errors: { 503: "no statement yet: the indexer is catching up, or no signing key is configured" },
};

export const historyContract = {
  summary: "Past signed statements, newest first",
  tags: STATEMENT_TAGS,
  query: z.object({
    limit: limitParam(MAX_LIST_LIMIT, 24),
    before: z.string().regex(/^\d{1,12}$/, "before must be a unix timestamp in seconds").transform(Number).optional().describe("only statements signed before this unix time"),
  }),
  response: StatementHistorySchema,
};

export const statementByHashContract = {
  summary: "One past signed statement by its attestation_hash",
  tags: STATEMENT_TAGS,
  response: PublishedStatementSchema,
  errors: { 404: "no statement with this attestation_hash" },
};

export const signerRegistryContract = {
  summary: "The signer binding: which key signs artifacts from which date, signed by the operator account",
  tags: STATEMENT_TAGS,
  response: SignerRegistrySchema,
  errors: { 404: "no attestation key is configured" },
};

export function porRoutes({ ctx, statements, adminToken }: PorRoutesOptions) {
  const app = new Hono();
  app.onError(onApiError);

  app.get("/api/por", async (c) => {
    const at = await resolveReportBlock(ctx, c.req.query("block"));
    return c.json(await loadPorReport(ctx, at));
  });

  app.get("/api/stats", async (c) => {
    const at = await resolveReportBlock(ctx, c.req.query("block"));
    try {
      return c.json(await loadStats(ctx, at));
    } catch (e) {
      if (e instanceof ChainReadError) throw new ApiError(503, "chain_read_failed", "a chain read did not land; nothing is published rather than a guess", { read: e.details.signature });
      throw e;
    }
  });

  app.get("/api/por/signed", ...contract(signedContract), async (c) => c.json(published((await statements.latest()).artifact)));

  app.get("/api/por/signed/history", ...contract(historyContract), async (c) => {
    const { limit, before } = validQuery(c, historyContract);
    const store = await statements.store;
    const rows = await store.statements.list({ limit, ...(before !== undefined && { before }) });
    const last = rows.at(-1);
    return c.json({
      statements: rows.map((r) => ({ timestamp: r.timestamp, blockNumber: Number(r.blockNumber), signer: r.signer as Address, status: r.status, attestation_hash: r.attestationHash as Hex, url: `${ctx.siteUrl}/api/por/signed/${r.attestationHash}` })),
      next: rows.length === limit && last ? `${ctx.siteUrl}/api/por/signed/history?limit=${limit}&before=${last.timestamp}` : null,
    } satisfies z.infer<typeof StatementHistorySchema>);
  });

  app.get("/api/por/signed/:hash", ...contract(statementByHashContract), async (c) => {
    const hash = c.req.param("hash");
    if (!/^0x[0-9a-fA-F]{64}$/.test(hash)) throw badRequest("invalid_hash", "expected an attestation_hash: 0x and 64 hex characters", { hash });
    const row = await (await statements.store).statements.byHash(hash);
    if (!row) throw new ApiError(404, "statement_not_found", "no statement with this attestation_hash", { hash });
    return c.json(published(row.artifact));
  });

  app.post("/api/por/signed", async (c) => {
    if (!adminToken || c.req.header("authorization") !== `Bearer ${adminToken}`) {
      throw new ApiError(403, "forbidden", "issuing a statement on demand needs the operator's admin token");
    }
    return c.json(await statements.issue(c.req.query("block")), 201);
  });

  app.get("/api/por/signer-registry", ...contract(signerRegistryContract), async (c) => {
    const binding = await statements.binding();
    if (!binding) throw new ApiError(404, "binding_not_configured", "no attestation key is configured: every artifact is signed by the operator account");
    return c.json({
      ...binding,
      verify: `npx kusd-verify ${ctx.siteUrl}/api/por/signed --binding ${ctx.siteUrl}/api/por/signer-registry --operator ${binding.binding.operator}`,
    } satisfies z.infer<typeof SignerRegistrySchema>);
  });

  app.get("/api/por/redemption-plan", async (c) => {
    const amount = c.req.query("amount");
    if (amount === undefined || !/^\d{1,15}(\.\d{1,18})?$/.test(amount)) {
      throw badRequest("invalid_amount", "amount is the kUSD to redeem, a positive decimal with at most 18 decimals", { amount: amount ?? null });
    }
    const kusd = parseUnits(amount, 18);
    if (kusd === 0n) throw badRequest("invalid_amount", "amount must be greater than zero", { amount });
    const at = await resolveReportBlock(ctx, c.req.query("block"));
    const psms = await readPsms(ctx, at.blockNumber);
    if (PSM_KEYS.some((k) => !psms[k].usdc || !psms[k].paused || !psms[k].fees)) {
      throw new ApiError(503, "chain_read_failed", "PSM reserves or fee schedules could not be read; no plan rather than a wrong one");
    }
    const plan = planRedemption(
      kusd,
      PSM_KEYS.map((k) => ({ key: k, address: psms[k].address, reserveUsdc: psms[k].usdc!.value, canServeRedemptions: psms[k].paused!.value === false, fees: psms[k].fees! })),
    );
    const usdc = ctx.network.usdc.address;
    const reader = new PinnedReader(ctx.base, at.blockNumber, ctx.network.reporting.publicRpc.base);
    // The chain answers the fee itself: each leg's tier is confirmed with the PSM's own getFee
    // at this block, so a fee rule we misread shows up as a refusal, not as a wrong quote.
    const checks = await Promise.all(
      plan.legs.map(async (l) => {
        const spec = { to: l.address, signature: "getFee(address,uint256)(uint256)", args: [usdc, l.tierSize] };
        const onChain = await reader.call<bigint>(spec).catch(() => null);
        const version = psms[l.key as PsmKey].fees!.version;
        // v1 quotes the redemption itself; v3 and live quote the same tier on the size in USDC units.
        const expected = version === "v1" ? l.feeKusd : (l.tierSize * BigInt(l.feeBps)) / 10_000n;
        return { onChain, expected, spec };
      }),
    );
    if (checks.some((x) => x.onChain === null)) throw new ApiError(503, "chain_read_failed", "a PSM's getFee could not be read at this block");
    const mismatch = checks.findIndex((x) => x.onChain !== x.expected);
    if (mismatch >= 0) {
      throw new ApiError(503, "fee_rule_mismatch", "a PSM's getFee disagrees with the fee rule this service applies; no plan rather than a wrong one", {
        psm: plan.legs[mismatch]!.address,
        onChain: checks[mismatch]!.onChain!.toString(),
        expected: checks[mismatch]!.expected.toString(),
      });
    }
    return c.json({
      blockNumber: Number(at.blockNumber),
      amountKUSD: amount,
      fullyRoutable: plan.shortfallKusd === 0n,
      shortfallKUSD: toUnits(plan.shortfallKusd, 18),
      sequentialTransactions: plan.sequentialTransactions,
      transactions: plan.legs.map((l, i) => ({
        step: i + 1,
        psm: l.key,
        psmVersion: psms[l.key as PsmKey].fees!.version,
        to: l.address,
        call: `swapKUSDForStable(${usdc}, ${l.kusdIn})`,
        kusdIn: toUnits(l.kusdIn, 18),
        kusdInWei: l.kusdIn.toString(),
        feeBps: l.feeBps,
        feeKUSD: toUnits(l.feeKusd, 18),
        usdcOut: toUnits(l.usdcOut, 6),
        verifyFee: reader.command(
          checks[i]!.spec,
          psms[l.key as PsmKey].fees!.version === "v1"
            ? `transactions[${i}].feeKUSD in wei (PSM v1 tiers the raw kUSD amount)`
            : `the ${l.feeBps} bps tier's fee on the leg's size in USDC units (${l.tierSize}); feeKUSD = kusdInWei × ${l.feeBps} / 10000`,
          checks[i]!.onChain!,
        ),
        cast: `cast send ${l.address} 'swapKUSDForStable(address,uint256)' ${usdc} ${l.kusdIn} --rpc-url ${ctx.network.reporting.publicRpc.base}  # after approving kUSD to this PSM`,
      })),
      routing: "smallest reserve that fully covers the amount; otherwise split across PSMs deepest first, one transaction each; each leg's fee by its PSM's deployed rule (first tier whose lower bound the size reaches, else the flat fee; PSM v1 compares the raw kUSD amount), confirmed with getFee at this block",
    });
  });

  return app;
}
