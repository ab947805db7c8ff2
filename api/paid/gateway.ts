/**
 * The paid gateway ({base_url} = the site's `/paid`): GET /reserves (0.25 USD) and POST
 * /instant-read (29 USD) over x402 v2, scheme exact, USDC via EIP-3009, plus the free OpenAPI
 * descriptor. Order of work per request:
 *   1. free checks: the descriptor; for /instant-read the body, the chain, operator ownership
 *      and the ERC-20 read itself; for /reserves that an attestation exists (4xx/503, no charge);
 *   2. the replay guard (a used authorization → 409 before anything else runs; a reservation left
 *      by a request that died is recovered from the chain, see settlement-recovery.ts);
 *   3. the x402 middleware (402 without payment; verify; run the handler; settle only a < 400
 *      answer, so a handler or RPC failure is never charged);
 *   4. our own verifier over the answer, as a buyer runs it: one that fails is a 503, never charged
 *      (verify-before-charge.ts);
 *   5. the handler: the stored statement with copies taken from its signed bytes, or an instant
 *      read signed with the key the signer binding assigns to now.
 */

import { type SignedArtifact, STATEMENT_MAX_AGE_SECONDS, signPayload, withSignedCopies } from "@kusd/core";
import type { FacilitatorClient } from "@x402/core/server";
import { ExactEvmScheme } from "@x402/evm/exact/server";
import { paymentMiddleware, x402ResourceServer } from "@x402/hono";
import { type Context, Hono } from "hono";
import type { Address, PublicClient } from "viem";
import type { BackgroundTasks } from "../background.js";
import { ApiError, errorBody } from "../http/errors.js";
import { type SigningKeys, signerFor } from "../statements/keys.js";
import type { StatementService } from "../statements/statement-service.js";
import type { OperatorStore } from "../store/operator-store.js";
import {
  type InstantReadRequest,
  instantReadPayload,
  parseInstantRead,
  readToken,
  refuseOperatorOwned,
  type TokenRead,
} from "./instant-read.js";
import { balanceOfReader, explainingInsufficientFunds } from "./insufficient-funds.js";
import { gatewayDescriptor } from "./openapi.js";
import { REDELIVERY, replayGuard } from "./replay-guard.js";
import { chainSettlementProbe, startRecoverySweep } from "./settlement-recovery.js";
import { bindingTrust, verifyBeforeCharge } from "./verify-before-charge.js";
import { type PaidTerms, paidRoutes } from "./x402-routes.js";

export type GatewayOptions = PaidTerms & {
  facilitator: FacilitatorClient;
  statements: StatementService;
  store: Promise<OperatorStore>;
  keys: SigningKeys;
  chains: { base: PublicClient; ethereum: PublicClient; ids: { base: number; ethereum: number } };
  /** Lower-cased addresses instant reads refuse: every registry account and protocol contract. */
  operatorOwned: ReadonlySet<string>;
  /** The operator account a buyer trusts (the registry's venue-margin account): it signs the binding. */
  operator: Address;
  /** Seconds after which an unfinished paid request's reservation is recovered from the chain (default 120). */
  paymentLeaseSeconds?: number;
  /** Block range per eth_getLogs when recovery looks for a settlement. */
  logRange?: bigint;
  /** Starts the recovery sweep when the app's background work starts, and stops it with the app. */
  background?: BackgroundTasks;
  now?: () => number;
};

type Vars = {
  instantRead: InstantReadRequest & { token: TokenRead };
  attestation: SignedArtifact;
  [REDELIVERY]?: boolean;
};

/** The signed fields GET /reserves repeats beside the signed bytes: the spec's ratio, and where the binding is. */
const RESERVES_COPIES = [
  "aggregate_solvency_ratio",
  "status",
  "schema_version",
  "signer_binding",
  "signer_binding_hash",
];

/**
 * The paid answers refuse HEAD (see below), so the app's 405 leaves HEAD out of their `Allow`.
 * (GET /reserves answers GET only, POST /instant-read POST only.)
 */
export const refusesHead = (basePath: string, path: string) =>
  path === `${basePath}/reserves` || path === `${basePath}/instant-read`;

export function createGateway(o: GatewayOptions) {
  const app = new Hono<{ Variables: Vars }>();
  const now = o.now ?? (() => Math.floor(Date.now() / 1000));
  const base = o.basePath;
  const descriptor = gatewayDescriptor(o);
  for (const path of ["/openapi.json", "/.well-known/openapi.json"])
    app.get(`${base}${path}`, (c) => c.json(descriptor));
  // Paid answers are bought with GET or POST only. Hono dispatches HEAD as GET, which would run
  // the GET handler outside the x402 middleware (it prices "GET /reserves"): refused first.
  app.use(`${base}/*`, async (c, next) => {
    if (c.req.method !== "HEAD" || !refusesHead(base, c.req.path)) return next();
    const allowed = [c.req.path.endsWith("/reserves") ? "GET" : "POST"];
    c.header("Allow", allowed.join(", "));
    return c.json(errorBody("method_not_allowed", `${c.req.method} is not allowed on ${c.req.path}`, { allowed }), 405);
  });

  // 1. Free checks, before any payment is asked.
  app.use(`${base}/instant-read`, async (c, next) => {
    if (c.req.method !== "POST") return next();
    const type = c.req.header("content-type") ?? "";
    if (!/^application\/json\s*(;|$)/i.test(type)) {
      throw new ApiError(
        "unsupported_media_type",
        "the request body must be JSON, sent with Content-Type: application/json",
        { contentType: type || null },
      );
    }
    const request = parseInstantRead(await c.req.text());
    refuseOperatorOwned(request.address, o.operatorOwned);
    const token = await readToken(
      request.chain === "base" ? o.chains.base : o.chains.ethereum,
      request.chain,
      request.address,
    );
    c.set("instantRead", { ...request, token });
    await next();
  });
  app.use(`${base}/reserves`, async (c, next) => {
    if (c.req.method !== "GET") return next();
    const latest = await o.statements
      .latestRendered()
      .then((r) => r.statement)
      .catch((e: unknown) => {
        if (e instanceof ApiError)
          throw new ApiError("attestation_unavailable", "no attestation is available yet; nothing was charged", {
            reason: e.code,
          });
        throw e;
      });
    c.set("attestation", JSON.parse(latest.artifact) as SignedArtifact);
    await next();
  });

  // 2. Replay guard, 3. x402.
  // A settlement lasts seconds; a reservation unfinished after the lease belongs to a request that died.
  const leaseSeconds = o.paymentLeaseSeconds ?? 120;
  const probe = chainSettlementProbe(o.chains.base, o.asset.address, { logRange: o.logRange });
  const sweep = () =>
    startRecoverySweep({ payments: o.store.then((s) => s.payments), probe, network: o.network, leaseSeconds }).stop;
  // With the app's background tasks it begins when they do (the signing API: once the indexer has caught up).
  if (o.background) o.background.start(sweep);
  else sweep();
  const headBlock = () => o.chains.base.getBlockNumber().catch(() => null);
  app.use(`${base}/*`, replayGuard(o.store, { leaseSeconds, probe, headBlock }));
  const routes = Object.fromEntries(paidRoutes(o).map((r) => [r.key, r.config]));
  // A payer short of the asset hears it with the balance and the price (insufficient-funds.ts).
  const facilitator = explainingInsufficientFunds(o.facilitator, {
    asset: o.asset,
    balanceOf: balanceOfReader(o.chains.base),
  });
  const server = new x402ResourceServer(facilitator).register(o.network, new ExactEvmScheme());
  const x402 = paymentMiddleware(routes, server);
  app.use(`${base}/*`, (c, next) => (c.get(REDELIVERY) ? next() : x402(c, next)));
  // 4. What x402 is about to charge for must pass the buyer's own verification.
  const trust = bindingTrust(() => o.statements.binding(), o.operator);
  for (const path of ["/reserves", "/instant-read"])
    app.use(`${base}${path}`, verifyBeforeCharge(trust, { maxAgeSeconds: STATEMENT_MAX_AGE_SECONDS, now }));

  // 5. Handlers.
  app.get(`${base}/reserves`, (c) => c.json(withSignedCopies(c.get("attestation"), RESERVES_COPIES)));

  app.post(`${base}/instant-read`, async (c: Context<{ Variables: Vars }>) => {
    const r = c.get("instantRead");
    const timestamp = now();
    const signer = signerFor(o.keys, timestamp);
    if (!signer) throw new ApiError("signer_not_configured", "no signing key is configured; nothing was charged");
    const payload = instantReadPayload({ ...r, chainId: o.chains.ids[r.chain], timestamp });
    const signed = await signPayload(signer.account, payload);
    return c.json({
      ok: true,
      kind: payload.kind,
      chain: r.chain,
      token: { symbol: r.token.symbol, decimals: r.token.decimals, totalSupplyGrouped: payload.total_supply_grouped },
      attestation_hash: signed.attestation_hash,
      signature: signed.signature,
      signer: signed.signer,
      signed_payload_canonical: signed.signed_payload_canonical,
    });
  });

  return app;
}
