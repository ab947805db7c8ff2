/**
 * Every environment variable the service, its runners and its clients read, in zod schemas: its
 * type, its check, its meaning and its default in one place (docs/configuration.md's table is made
 * from these). A bad value stops the process with one line per variable (name, what was
 * wrong), instead of an unchecked cast deep in a module. An empty string counts as unset.
 */

import { BoardVaultSchema, KusdError, MarketPeerSchema } from "@kusd/core";
import { type Address, type Hex, isAddress, isHex } from "viem";
import { z } from "zod";

const address = z
  .string()
  .refine((s) => isAddress(s, { strict: false }), "must be an address: 0x and 40 hex digits")
  .transform((s) => s as Address);
const url = z.url({ protocol: /^https?$/, error: "must be an http(s) URL" });
const wsUrl = z.url({ protocol: /^wss?$/, error: "must be a ws(s) URL" });
const urlList = z
  .string()
  .transform((s) =>
    s
      .split(",")
      .map((u) => u.trim())
      .filter(Boolean),
  )
  .pipe(z.array(url).min(1, "must name at least one URL"));
const positiveInt = z.coerce
  .number({ error: "must be a number" })
  .int("must be a whole number")
  .positive("must be positive");
/** A JSON array in a variable, each element checked by `item`. */
const jsonArrayOf = <T extends z.ZodType>(item: T) =>
  z
    .string()
    .transform((s, ctx) => {
      try {
        return JSON.parse(s) as unknown;
      } catch {
        ctx.addIssue({ code: "custom", message: "must be a JSON array" });
        return z.NEVER;
      }
    })
    .pipe(z.array(item, { error: "must be a JSON array" }));
const privateKey = z
  .string()
  .refine((s) => isHex(s) && s.length === 66, "must be a 32-byte hex private key (0x and 64 hex digits)")
  .transform((s) => s as Hex);

/** A variable: its check, what it means and what applies when it is unset (the docs' table is made from these). */
const variable = <T extends z.ZodType>(schema: T, description: string, unset: string) =>
  schema.optional().meta({ description, unset });
const flag = z.enum(["0", "1"], { error: 'must be "0" or "1"' }).transform((s) => s === "1");
const csv = z.string().transform((s) =>
  s
    .split(",")
    .map((x) => x.trim())
    .filter(Boolean),
);
/** Addresses and CIDRs, comma-separated (`10.0.0.0/8, 2001:db8::/32, 192.0.2.7`). */
const addressList = csv.pipe(
  z.array(
    z
      .union([z.ipv4(), z.ipv6(), z.cidrv4(), z.cidrv6()], {
        error: "must list IP addresses or CIDRs (10.0.0.0/8, 2001:db8::/32), comma-separated",
      })
      .refine((a) => !/\/0+$/.test(a), "a /0 would take in every address"),
  ),
);

/** The indexer+API process (Ponder's, `npm start`'s) and the read replica: what they read, each variable once. */
export const serviceEnvSchema = z.object({
  KUSD_NETWORK: z.enum(["devnet", "base"], { error: 'must be "devnet" or "base"' }).default("devnet").meta({
    description: "`devnet` (reads `devnet/network.json`) or `base` (the operator's Base mainnet deployment)",
    unset: "`devnet`",
  }),
  KUSD_NETWORK_FILE: variable(
    z.string(),
    "a network document to index instead (the devnet runner sets it)",
    "the network's own",
  ),
  KUSD_OPERATOR_REGISTRY_FILE: variable(
    z.string(),
    "a newer copy of the operator's registry file (Base)",
    "`packages/config/networks/base/operator-deployments-8453.json`",
  ),
  DATABASE_URL: variable(
    z.string(),
    "PostgreSQL connection string for the indexer, the operator store and the replica",
    "PGlite (embedded)",
  ),
  PORT: variable(
    positiveInt,
    "the API's port (the replica's with `npm run serve:replica`, the facilitator's with `npm run serve:facilitator`)",
    "42069 (replica 42070, facilitator 42071)",
  ),
  KUSD_PAGE_DIR: variable(
    z.string(),
    "the built reserves page served at `/` (`npm start` builds it there)",
    "`web/dist`",
  ),
  KUSD_SITE_URL: variable(
    url,
    "public base URL printed in reports (`canonicalEndpoint`, the binding's URL) and security.txt's `Canonical` (unset: none)",
    "`http://localhost:$PORT`",
  ),
  KUSD_MCP_ALLOWED_ORIGINS: variable(
    urlList,
    "origins (comma-separated) whose pages may call `/mcp` from a browser; a request with another `Origin` is refused 403 (DNS-rebinding protection)",
    "the site URL's origin, and loopback origins while the site is on loopback",
  ),
  KUSD_MCP_ALLOWED_HOSTS: variable(
    csv,
    "`Host` values (`name[:port]`, comma-separated) `/mcp` answers to besides the site URL's host and loopback names (behind a proxy that rewrites `Host`)",
    "the site URL's host and loopback names",
  ),
  PONDER_RPC_URL_8453: variable(
    urlList,
    "Base RPC URL(s), comma-separated: Ponder spreads requests over them; required with `KUSD_NETWORK=base`",
    "devnet: anvil",
  ),
  PONDER_WS_URL_8453: variable(
    wsUrl,
    "Base WebSocket RPC URL: new heads arrive by `eth_subscribe` instead of being polled every `KUSD_POLLING_INTERVAL_MS` (Ponder falls back to polling when the socket fails)",
    "devnet: anvil's socket; none when `PONDER_RPC_URL_8453` is set",
  ),
  PONDER_RPC_URL_1: variable(url, "Ethereum RPC URL (instant reads on chain 1)", "devnet: anvil"),
  KUSD_READ_RPC_URL_8453: variable(
    url,
    "RPC for the reports' pinned reads (an archive node for `?block=N`)",
    "the first of `PONDER_RPC_URL_8453`",
  ),
  KUSD_ANCHOR_RPC_URL: variable(
    url,
    "RPC the signing API sends each statement's anchor through (an EAS attestation on Base, from the key that signed it, which must hold a little ETH for gas: docs/running-on-base.md)",
    "`KUSD_READ_RPC_URL_8453`",
  ),
  KUSD_READ_RPC_URL_1: variable(url, "RPC for reads on chain 1; required on base", "`PONDER_RPC_URL_1`"),
  KUSD_PUBLIC_RPC_URL_8453: variable(
    url,
    "RPC printed in `verifyVia` commands: never a URL with a key",
    "`https://mainnet.base.org` (devnet: anvil)",
  ),
  KUSD_PUBLIC_RPC_URL_1: variable(url, "chain 1 RPC printed in commands", "a public Ethereum RPC (devnet: anvil)"),
  KUSD_ETH_GET_LOGS_BLOCK_RANGE: variable(
    positiveInt,
    "`eth_getLogs` block range (as `kusd-doctor` recommends)",
    "Ponder's detection; 2,000 on base",
  ),
  KUSD_POLLING_INTERVAL_MS: variable(positiveInt, "head polling interval of the indexer", "the network document's"),
  KUSD_INDEXING_CACHE_MB: variable(
    z.coerce.number().int().min(1).max(4_096),
    "Ponder's indexing cache (MB; `PONDER_CACHE_BYTES` wins when set). The handlers look up few rows and only insert the rest, so a small cache only flushes sooner: at devnet scale 1100, 32 MB backfilled in 63 s at 997 MB peak RSS on PGlite, against 66–67 s at 1,085 MB with Ponder's default (a fifth of the heap, 128 MB): docs/benchmarks.md",
    "32",
  ),
  KUSD_MAX_OLD_SPACE_MB: variable(
    z.coerce.number().int().min(128).max(65_536),
    "V8 old space of the indexer+API process (with a 32 MB semi-space): bounds how far the heap grows past what is live before a major GC. Ponder's indexing cache has its own budget (KUSD_INDEXING_CACHE_MB). The PGlite backfill at devnet scale 1100 peaked at 958 MB RSS at 512 against 1,048 at 1024, as fast; of that RSS, two PGlite instances (Ponder's and the operator store's) held about 250 MB each; the operator store now opens only once the indexer has caught up or a request reads it (docs/benchmarks.md)",
    "512 (1024 for a day, 2026-11-29: `ponder start` then built its API through vite-node, whose heap peak of 600–740 MB ran out of 512 on Node 20)",
  ),
  KUSD_CACHE_BLOCKS: variable(
    z.coerce.number().int().min(1).max(4_096),
    "blocks whose inputs each report keeps (chain snapshots, indexed redemptions, PSM gates, the risk's chain part, holdsRole): a past block asked again within that many others costs no RPC call",
    "32",
  ),
  KUSD_CACHE_HISTORY_BLOCKS: variable(
    z.coerce.number().int().min(1).max(256),
    "blocks whose indexed history rows `/api/history` keeps (each entry holds every row up to its block)",
    "8",
  ),
  KUSD_CACHE_HEADERS: variable(
    z.coerce.number().int().min(1).max(65_536),
    "block headers kept: those the reports read, and those the indexer in the process announced",
    "256",
  ),
  KUSD_CACHE_REPORTS_MB: variable(
    z.coerce.number().min(1).max(1_024),
    "MB of rendered reports each report (`/api/por`, `/api/stats`, `/api/apy`) keeps, weighed by their bytes: a report at a past block is rendered once while it stays",
    "16",
  ),
  KUSD_CACHE_VENUE_READINGS: variable(
    z.coerce.number().int().min(1).max(65_536),
    "recorded venue readings kept, as asked per block (`KUSD_HEAD_FRESH_MS` each)",
    "256",
  ),
  KUSD_CACHE_GRAPHQL_MB: variable(
    z.coerce.number().min(1).max(1_024),
    "MB of each level of the GraphQL response cache: execution results (weighed as JSON) and answers' bytes",
    "16",
  ),
  KUSD_CACHE_GRAPHQL_DOCUMENTS: variable(
    z.coerce.number().int().min(1).max(65_536),
    "parsed GraphQL documents kept by their text (and as many parse errors): a document of the 2,000 tokens allowed holds a few hundred KB parsed",
    "256",
  ),
  KUSD_CACHE_COMPRESSED_MB: variable(
    z.coerce.number().min(1).max(1_024),
    "MB of compressed answers kept, so a body is compressed once (twice this in the indexer's process: its API and Ponder's own routes)",
    "16",
  ),
  KUSD_CACHE_RPC_URLS: variable(
    z.coerce.number().int().min(1).max(1_024),
    "RPC endpoints whose code presence (has this address code at this block) is kept: the service's own and those `verify_report` is asked to read",
    "8",
  ),
  KUSD_REGISTRY_SOURCE: variable(
    csv,
    "published registry documents (URLs or files, comma-separated), verified before use",
    "the network document's versions",
  ),
  KUSD_REGISTRY_SIGNATURES: variable(
    z.string(),
    "JSON file of the operator's membership signatures (public once published)",
    "the network document's",
  ),
  KUSD_VENUE_URL: variable(
    url,
    "venue API (`/info`) for the live equity of the hedge account",
    "Hyperliquid `/info` (devnet: the simulator)",
  ),
  KUSD_VENUE_MAX_AGE_SECONDS: variable(
    z.coerce.number().int().min(0).max(3600),
    "the venue is read at most this often for the reports (0: every request); the age is published",
    "5",
  ),
  KUSD_HEAD_FRESH_MS: variable(
    z.coerce.number().int().min(0).max(10_000),
    "one read of the RPC's head, holdsRole and a block's header (when the indexer in the process did not read it) serves every report for this long; the indexed head is read at most every 100 ms (0: only concurrent requests share them)",
    "4000",
  ),
  KUSD_READER_RPC_CALLS_PER_SECOND: variable(
    z.coerce.number({ error: "must be a number" }).positive("must be positive").max(100_000),
    "JSON-RPC calls a second that readers' requests may cause (reports' pinned reads, live reads, headers; each call of a batch counts), per API process: with N processes, each takes its share of the provider's plan. The indexer, statements, anchoring and the paid gateway are not counted against it (docs/running-on-base.md#the-readers-budget)",
    "5 (100 viewers of the reserves page cost 0.75; a report at a past block 1 to 3)",
  ),
  KUSD_READER_RPC_BURST: variable(
    z.coerce.number({ error: "must be a number" }).int("must be a whole number").min(1).max(1_000_000),
    "calls readers may take at once from a full budget: at least one of every report at the head from a process that has read nothing (the honesty board reads both chains for every peer)",
    "160",
  ),
  KUSD_READER_VENUE_WEIGHT_PER_MINUTE: variable(
    z.coerce.number({ error: "must be a number" }).positive("must be positive").max(1_000_000),
    "venue request weight a minute readers' requests may cause, per API process, as the venue weighs it (Hyperliquid: 2 for clearinghouseState, 20 for history requests, 1,200 a minute per IP address)",
    "600 (half of Hyperliquid's 1,200: the statements' venue reads keep the rest)",
  ),
  KUSD_READER_VENUE_BURST: variable(
    z.coerce.number({ error: "must be a number" }).int("must be a whole number").min(20).max(1_000_000),
    "venue weight readers may take at once from a full budget: at least one `/api/hedge-ledger`, which reads the whole ledger on each request (weight 320 on the devnet, 16 history requests; it grows with the hedge's age: `kusd_reader_venue_weight_total` before and after one tells)",
    "600",
  ),
  KUSD_READER_MAX_WAIT_MS: variable(
    z.coerce.number({ error: "must be a number" }).int("must be a whole number").min(0).max(30_000),
    "how long a request waits in all for the readers' budget before it answers 503 `reader_rpc_budget_exhausted` with Retry-After (0: never waits)",
    "1000",
  ),
  KUSD_ETH_USD_FEED: variable(address, "AggregatorV3 feed the reports price ETH with", "Chainlink ETH / USD on Base"),
  KUSD_HEDGE_WATCH_ONLY: variable(
    address,
    "the operator's watch-only hedge wallet on Base (disclosed in the protocol-owned view)",
    "the network document's",
  ),
  KUSD_INCENTIVE_ESCROW: variable(
    address,
    "the incentive escrow whose balance funds `/api/apy` incentive figures",
    "the network document's",
  ),
  KUSD_OPERATOR_PRIVATE_KEY: variable(
    privateKey,
    "the operator account's key: signs the binding and artifacts dated before the attestation key's start",
    "devnet: set by the devnet runner; unset: nothing is signed with it",
  ),
  KUSD_ATTESTATION_PRIVATE_KEY: variable(
    privateKey,
    "the attestation key: signs artifacts from its start date, and anchors each statement it signs on Base (an EAS attestation an hour: it must hold a little ETH for gas, about 0.0024 ETH a month at 0.01 gwei; `kusd-doctor` checks it)",
    "devnet: set by the devnet runner; unset: nothing is signed with it",
  ),
  KUSD_ATTESTATION_SIGNER: variable(
    address,
    "the bound attestation address (a key given must belong to it)",
    "the network document's",
  ),
  KUSD_STATEMENT_INTERVAL_SECONDS: variable(positiveInt, "signed-statement cadence", "3600"),
  KUSD_STORE_DIR: variable(
    z.string(),
    "where the operator store (statements, bindings, venue readings, payments) persists with PGlite",
    "`.ponder/operator-store`",
  ),
  KUSD_STORE_SCHEMA: variable(z.string(), "its schema in `DATABASE_URL` with PostgreSQL", "`kusd_operator`"),
  KUSD_ADMIN_TOKEN: variable(
    z.string(),
    "bearer token for `POST /api/por/signed` (issue a statement on demand)",
    "unset: that route is off",
  ),
  KUSD_PAYMENT_RECIPIENT: variable(
    address,
    "x402 payee (the paid gateway is off without a recipient)",
    "devnet: the deployment's",
  ),
  KUSD_BUILDER_CODE: variable(
    z.string(),
    "the builder code in the gateway's descriptor and payment requirements",
    "the network document's",
  ),
  KUSD_X402_FACILITATOR_URL: variable(
    url,
    "a remote x402 facilitator",
    "in process, with `KUSD_FACILITATOR_PRIVATE_KEY`",
  ),
  KUSD_FACILITATOR_PRIVATE_KEY: variable(
    privateKey,
    "the gas key of the in-process facilitator",
    "devnet: the deployment's; unset without a URL: no gateway",
  ),
  KUSD_FACILITATOR_HOST: variable(
    z.string().min(1),
    "the address `npm run serve:facilitator` listens on (its port is PORT): a private network's, never a public one",
    "127.0.0.1",
  ),
  KUSD_FACILITATOR_POLLING_MS: variable(
    positiveInt,
    "how often the in-process facilitator polls for a settlement's receipt",
    "250",
  ),
  KUSD_PAYMENT_LEASE_SECONDS: variable(
    positiveInt,
    "after this long an unfinished paid request's reservation is recovered from the chain (docs/paid-gateway.md)",
    "120",
  ),
  KUSD_SECURITY_CONTACT: variable(
    csv,
    "security.txt `Contact` URIs, comma-separated (RFC 9116)",
    "unset: no security.txt (404)",
  ),
  KUSD_SECURITY_EXPIRES: variable(
    z.iso.datetime({ offset: true, error: "must be an ISO 8601 date-time, e.g. 2027-05-01T00:00:00Z" }),
    "security.txt `Expires`",
    "unset: no security.txt (404)",
  ),
  KUSD_SECURITY_POLICY: variable(url, "security.txt `Policy`", "none"),
  KUSD_MARKET_PEERS: variable(
    jsonArrayOf(MarketPeerSchema),
    "peers shown beside our yield in `/api/apy` marketContext (a JSON array)",
    "none",
  ),
  KUSD_HONESTY_PEERS: variable(
    jsonArrayOf(BoardVaultSchema),
    "vaults added to the `/api/honesty-index` board after ours (a JSON array)",
    "none",
  ),
  KUSD_PRIVATE_SQL_PORT: variable(
    positiveInt,
    "a loopback-only port for Ponder's SQL over HTTP (tests, local debugging)",
    "unset: no SQL endpoint at all",
  ),
  KUSD_VIEWS_SCHEMA: variable(z.string(), "the replica reads Ponder's tables through this views schema", "`kusd`"),
  KUSD_CHECK_RESPONSES: variable(
    flag,
    "`1`: every answer is checked against its route's response schema (a breach answers 500); the test stack sets it",
    "`0`",
  ),
  KUSD_BENCH_ROUTES: variable(
    flag,
    "`1` serves `GET /__bench/constant?bytes=N`, the baseline of `npm run bench:reports`, and (in the indexer's API) Ponder's generated GraphQL at `/__bench/ponder/graphql`, the baseline of `npm run bench:api`",
    "`0`",
  ),
  KUSD_RATE_LIMIT: variable(
    flag,
    "`0` turns the per-client limits off: no request is counted or refused (docs/api.md#limits)",
    "`1`: on",
  ),
  KUSD_RATE_LIMIT_POINTS: variable(
    z.coerce
      .number()
      .int()
      .min(100, "must be at least 100: below, the dearest requests could never be served")
      .max(1e9),
    "points each client may spend per window, each request costing points by what it makes the service do (docs/api.md#limits has the costs and how to size this)",
    "1200",
  ),
  KUSD_RATE_LIMIT_WINDOW_SECONDS: variable(
    z.coerce.number().int().min(1).max(86_400),
    "the window a client's points are counted over; a client over its budget waits for the window's end (`Retry-After`)",
    "60",
  ),
  KUSD_TRUSTED_PROXIES: variable(
    addressList,
    "reverse proxies (addresses or CIDRs, comma-separated) in front of the API: a request from one is the client's at the right-most `X-Forwarded-For` address that is not a trusted proxy",
    "none: the client is the socket's address and `X-Forwarded-For` is never read",
  ),
  KUSD_RATE_LIMIT_EXEMPT: variable(
    addressList,
    "clients (addresses or CIDRs, comma-separated) never limited: the operator's own monitors and dashboards",
    "none",
  ),
  KUSD_RATE_LIMIT_REDIS_URL: variable(
    z.url({ protocol: /^rediss?$/, error: "must be a redis:// or rediss:// URL" }),
    "a Redis the API processes share the limits in (wins over PostgreSQL)",
    "none: with `DATABASE_URL`, its PostgreSQL (table `rate_limit` in `KUSD_STORE_SCHEMA`); else this process's memory",
  ),
});

/** `npm start`, `npm run devnet` and the Ponder process's database choice: the runners, not the service. */
export const runnerEnvSchema = z.object({
  DEVNET_BASE_PORT: variable(positiveInt, "the Base devnet's port", "8545"),
  DEVNET_ETHEREUM_PORT: variable(positiveInt, "the Ethereum devnet's port", "8546"),
  DEVNET_VENUE_PORT: variable(positiveInt, "the venue simulator's port", "8547"),
  DEVNET_DEPLOYMENT: variable(z.string(), "where the deployment file is written and read", "`devnet/deployment.json`"),
  PONDER_PGLITE_DIR: variable(z.string(), "where PGlite keeps its files", "`.ponder/pglite`"),
  KUSD_MONITOR_CONFIG: variable(
    z.string(),
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the monitor file's own ${NAME} reference, quoted
    "a `kusd-monitor` configuration file (docs/monitoring.md): `npm start` checks it first, then runs the monitor beside the API (its `api` may be `${KUSD_API_URL}`, the API started)",
    "no monitor",
  ),
  KUSD_VERBOSE: variable(
    z.string(),
    "`npm start` echoes the indexer's whole log; without it only warnings, errors and the API's own lines (a 500's `[api] <requestId>` line)",
    "quiet",
  ),
});

/** Read by the command-line clients (their `--help` says the same). */
export const clientEnvSchema = z.object({
  KUSD_MONITOR_SECRET: variable(
    z.string(),
    "HMAC secret of `kusd-monitor` webhooks (or `--secret`)",
    "none: webhooks unsigned",
  ),
  KUSD_AGENT_KEY: variable(
    privateKey,
    "the paying key of `kusd-buy` (another variable with `--key-env`)",
    "none: kusd-buy refuses to run",
  ),
});

export type ServiceEnv = z.infer<typeof serviceEnvSchema>;

export class EnvironmentError extends KusdError<{ variables: { name: string; problem: string }[] }> {
  override name = "EnvironmentError";
  readonly code: string = "invalid_environment";
}

export type RunnerEnv = z.infer<typeof runnerEnvSchema>;
export type ClientEnv = z.infer<typeof clientEnvSchema>;

/** `schema`'s variables out of an environment, checked; throws EnvironmentError naming every bad variable. */
function readEnv<S extends z.ZodObject>(schema: S, env: Readonly<Record<string, string | undefined>>): z.infer<S> {
  const present = Object.fromEntries(Object.keys(schema.shape).flatMap((k) => (env[k] ? [[k, env[k]]] : [])));
  const parsed = schema.safeParse(present);
  if (parsed.success) return parsed.data;
  const variables = parsed.error.issues.map((i) => ({ name: String(i.path[0]), problem: i.message }));
  throw new EnvironmentError(`invalid environment: ${variables.map((v) => `${v.name} ${v.problem}`).join("; ")}`, {
    variables,
  });
}

/**
 * The service's configuration from an environment: parsed once, in the process's entry point
 * (`src/config.ts` in Ponder's process, `stack/replica.ts`), and passed down from there.
 */
export const readServiceEnv = (env: Readonly<Record<string, string | undefined>>): ServiceEnv =>
  readEnv(serviceEnvSchema, env);
export const readRunnerEnv = (env: Readonly<Record<string, string | undefined>>): RunnerEnv =>
  readEnv(runnerEnvSchema, env);
export const readClientEnv = (env: Readonly<Record<string, string | undefined>>): ClientEnv =>
  readEnv(clientEnvSchema, env);

/** Each group's variables with what they mean and what applies unset, for the docs' table. */
export const ENVIRONMENT = [
  { group: "The service (indexer, API, replica)", schema: serviceEnvSchema },
  { group: "The runners (`npm start`, `npm run devnet`)", schema: runnerEnvSchema },
  { group: "The clients", schema: clientEnvSchema },
] as const;
