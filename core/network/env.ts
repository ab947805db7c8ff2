/**
 * Every environment variable the service reads, in one zod schema: its type, its check and its
 * meaning in one place. A bad value stops the process with one line per variable (name, what was
 * wrong), instead of an unchecked cast deep in a module. An empty string counts as unset.
 */
import { isAddress, isHex, type Address, type Hex } from "viem";
import { z } from "zod";
import { KusdError } from "../errors.js";
import { MarketPeerSchema } from "../yield/apy-market-context.js";
import { BoardVaultSchema } from "../yield/honesty-index-schema.js";

const address = z.string().refine((s) => isAddress(s, { strict: false }), "must be an address: 0x and 40 hex digits").transform((s) => s as Address);
const url = z.url({ protocol: /^https?$/, error: "must be an http(s) URL" });
const urlList = z.string().transform((s) => s.split(",").map((u) => u.trim()).filter(Boolean)).pipe(z.array(url).min(1, "must name at least one URL"));
const positiveInt = z.coerce.number({ error: "must be a number" }).int("must be a whole number").positive("must be positive");
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
const privateKey = z.string().refine((s) => isHex(s) && s.length === 66, "must be a 32-byte hex private key (0x and 64 hex digits)").transform((s) => s as Hex);

export const serviceEnvSchema = z.object({
  KUSD_NETWORK: z.enum(["devnet", "base"], { error: 'must be "devnet" or "base"' }).default("devnet"),
  KUSD_NETWORK_FILE: z.string().optional(),
  KUSD_OPERATOR_REGISTRY_FILE: z.string().optional(),
  PONDER_RPC_URL_8453: urlList.optional(),
  PONDER_RPC_URL_1: url.optional(),
  KUSD_READ_RPC_URL_8453: url.optional(),
  KUSD_READ_RPC_URL_1: url.optional(),
  KUSD_PUBLIC_RPC_URL_8453: url.optional(),
  KUSD_PUBLIC_RPC_URL_1: url.optional(),
  KUSD_VENUE_URL: url.optional(),
  /** The venue is read at most this often (seconds; 0: on every request); default 5. */
  KUSD_VENUE_MAX_AGE_SECONDS: z.coerce.number().int().min(0).max(3600).optional(),
  /** One read of the indexed head serves every report for this long (ms; 0: only concurrent requests share it); default 250. */
  KUSD_HEAD_FRESH_MS: z.coerce.number().int().min(0).max(10_000).optional(),
  /** V8 old space of the indexer+API process, MB (the launcher passes --max-old-space-size); default 512. */
  KUSD_MAX_OLD_SPACE_MB: z.coerce.number().int().min(128).max(65_536).optional(),
  KUSD_ETH_GET_LOGS_BLOCK_RANGE: positiveInt.optional(),
  KUSD_POLLING_INTERVAL_MS: positiveInt.optional(),
  KUSD_FACILITATOR_POLLING_MS: positiveInt.optional(),
  KUSD_STATEMENT_INTERVAL_SECONDS: positiveInt.optional(),
  KUSD_HEDGE_WATCH_ONLY: address.optional(),
  KUSD_INCENTIVE_ESCROW: address.optional(),
  KUSD_ETH_USD_FEED: address.optional(),
  KUSD_ATTESTATION_SIGNER: address.optional(),
  KUSD_PAYMENT_RECIPIENT: address.optional(),
  KUSD_BUILDER_CODE: z.string().optional(),
  KUSD_X402_FACILITATOR_URL: url.optional(),
  KUSD_FACILITATOR_PRIVATE_KEY: privateKey.optional(),
  KUSD_OPERATOR_PRIVATE_KEY: privateKey.optional(),
  KUSD_ATTESTATION_PRIVATE_KEY: privateKey.optional(),
  KUSD_REGISTRY_SOURCE: z.string().transform((s) => s.split(",").map((x) => x.trim()).filter(Boolean)).optional(),
  KUSD_REGISTRY_SIGNATURES: z.string().optional(),
  KUSD_SITE_URL: url.optional(),
  /** security.txt (RFC 9116): Contact URIs (comma-separated), Expires (ISO 8601), Policy URL. */
  KUSD_SECURITY_CONTACT: z.string().transform((s) => s.split(",").map((x) => x.trim()).filter(Boolean)).optional(),
  KUSD_SECURITY_EXPIRES: z.iso.datetime({ offset: true, error: "must be an ISO 8601 date-time, e.g. 2027-05-01T00:00:00Z" }).optional(),
  KUSD_SECURITY_POLICY: url.optional(),
  PORT: positiveInt.optional(),
  KUSD_ADMIN_TOKEN: z.string().optional(),
  KUSD_STORE_DIR: z.string().optional(),
  KUSD_STORE_SCHEMA: z.string().optional(),
  DATABASE_URL: z.string().optional(),
  /** "1": every API answer is checked against its route's response schema (a breach answers 500); the e2e stack sets it. */
  /** Peers shown beside our yield in /api/apy marketContext. */
  KUSD_MARKET_PEERS: jsonArrayOf(MarketPeerSchema).optional(),
  /** Vaults added to the /api/honesty-index board after ours. */
  KUSD_HONESTY_PEERS: jsonArrayOf(BoardVaultSchema).optional(),
  /** A loopback-only port for Ponder's SQL-over-HTTP (tests, local debugging); unset: no SQL endpoint at all. */
  KUSD_PRIVATE_SQL_PORT: positiveInt.optional(),
  /** Seconds after which a paid request's unfinished reservation is recovered from the chain (default 120). */
  KUSD_PAYMENT_LEASE_SECONDS: positiveInt.optional(),
  /** "1": serve GET /__bench/constant, the baseline of `npm run bench:reports`. */
  KUSD_BENCH_ROUTES: z.enum(["0", "1"], { error: 'must be "0" or "1"' }).transform((s) => s === "1").optional(),
  KUSD_CHECK_RESPONSES: z.enum(["0", "1"], { error: 'must be "0" or "1"' }).transform((s) => s === "1").optional(),
});

export type ServiceEnv = z.infer<typeof serviceEnvSchema>;

export class EnvironmentError extends KusdError<{ variables: { name: string; problem: string }[] }> {
  override name = "EnvironmentError";
  readonly code: string = "invalid_environment";
}

/** The service's environment, checked; throws EnvironmentError naming every bad variable. */
export function readServiceEnv(env: NodeJS.ProcessEnv = process.env): ServiceEnv {
  const present = Object.fromEntries(Object.keys(serviceEnvSchema.shape).flatMap((k) => (env[k] ? [[k, env[k]]] : [])));
  const parsed = serviceEnvSchema.safeParse(present);
  if (parsed.success) return parsed.data;
  const variables = parsed.error.issues.map((i) => ({ name: String(i.path[0]), problem: i.message }));
  throw new EnvironmentError(`invalid environment: ${variables.map((v) => `${v.name} ${v.problem}`).join("; ")}`, { variables });
}
