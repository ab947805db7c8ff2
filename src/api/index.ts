/**
 * Ponder's HTTP entry, kept thin. Ponder itself serves /health, /ready and /status (the
 * indexed block per chain). /sql is Ponder's read-only SQL-over-HTTP for @ponder/client. The
 * reports come from api/: the same code a standalone reader mounts.
 */
import { db } from "ponder:api";
import schema from "ponder:schema";
import { Hono } from "hono";
import { client, graphql as ponderGraphql } from "ponder";
import { loadSigningKeys } from "../../api/attestation/keys.js";
import { StatementService } from "../../api/attestation/statement-service.js";
import { notFound, onApiError } from "../../api/http/errors.js";
import { createFacilitatorClient } from "../../api/paid/facilitator.js";
import { createGateway } from "../../api/paid/gateway.js";
import { operatorOwnedAddresses } from "../../api/paid/operator-owned.js";
import type { ReadDb } from "../../api/indexed/reads.js";
import { createReportContext, resolveReportBlock } from "../../api/reports/context.js";
import { porRoutes } from "../../api/routes/por-routes.js";
import { createGraphQL } from "../../api/graphql/yoga.js";
import { eventsRoutes } from "../../api/routes/events-routes.js";
import { yieldRoutes } from "../../api/routes/yield-routes.js";
import { hedgeLedgerRoutes } from "../../api/routes/hedge-ledger-routes.js";
import { lendingRoutes } from "../../api/routes/lending-routes.js";
import { registryRoutes } from "../../api/routes/registry-routes.js";
import { loadSignatureBook, RegistryService } from "../../api/registry/registry-service.js";
import { openOperatorStore } from "../../api/store/operator-store.js";
import { loadNetwork } from "../networks/index.js";

const env = process.env;
const network = await loadNetwork(env);
const siteUrl = (env.KUSD_SITE_URL ?? `http://localhost:${env.PORT ?? 42069}`).replace(/\/$/, "");
// bench/bare declares its own "ponder:schema" module, which widens the type of `db` here.
const ctx = createReportContext(network, db as unknown as ReadDb, siteUrl);
const store = openOperatorStore({
  databaseUrl: env.DATABASE_URL,
  directory: env.KUSD_STORE_DIR,
  schema: env.KUSD_STORE_SCHEMA,
});
const keys = loadSigningKeys(network, env);
const statements = new StatementService(ctx, store, keys);
statements.start(Number(env.KUSD_STATEMENT_INTERVAL_SECONDS ?? 3_600));

const app = new Hono();
app.onError(onApiError);
app.use("/sql/*", client({ db, schema }));
// Ponder's generated GraphQL over the same tables, kept for Ponder-native clients and as the
// baseline of `npm run bench:api`; ours (with reports, filters and limits) is /graphql.
app.use("/ponder/graphql", ponderGraphql({ db, schema }));
const registry = new RegistryService(ctx, () => loadSignatureBook(ctx, env));
// Registry routes first: porRoutes ends with the JSON 404 for every other /api path.
app.route("/", registryRoutes(ctx, registry));
app.route("/", eventsRoutes(ctx));
app.route("/", yieldRoutes(ctx, keys));
app.route("/", hedgeLedgerRoutes(ctx));
// /api/euler at the indexed head like the other reports (or ?block=N).
app.route("/", lendingRoutes(ctx, { resolveBlock: (b) => resolveReportBlock(ctx, b) }));
const graphql = createGraphQL(ctx, { statements, registry });
app.on(["GET", "POST", "OPTIONS"], "/graphql", (c) => graphql.fetch(c.req.raw));
app.route("/", porRoutes({ ctx, statements, adminToken: env.KUSD_ADMIN_TOKEN }));
// The paid gateway ({base_url} = <site>/paid), when a recipient and a facilitator are configured.
const pay = network.payments;
if (pay.recipient && pay.facilitator) {
  app.route("/", createGateway({
    basePath: "/paid",
    publicUrl: `${siteUrl}/paid`,
    network: pay.network,
    recipient: pay.recipient,
    builderCode: pay.builderCode,
    asset: pay.asset,
    prices: { reserves: 250_000n, instantRead: 29_000_000n },
    facilitator: createFacilitatorClient(pay.facilitator.kind === "local" ? { ...pay.facilitator, network: pay.network } : pay.facilitator),
    statements,
    store,
    keys,
    chains: { base: ctx.base, ethereum: ctx.ethereum, ids: { base: network.chains.base.id, ethereum: network.chains.ethereum.id } },
    operatorOwned: operatorOwnedAddresses(network),
  }));
}
app.notFound(notFound);

export default app;
