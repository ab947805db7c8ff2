/**
 * Every error code the HTTP API answers with (`{"error": {"code", "message", "details"}}`), its
 * status and what it means: the one place both come from. `ApiError` takes its status from here,
 * OpenAPI's `Error.code` lists these, and docs/api.md's table is made from them
 * (`errorCodeTable`, checked by error-codes.test.ts). Beside them, a query parameter that fails its
 * check answers `invalid_<parameter>` (400), named after the parameter.
 */
import type { ContentfulStatusCode } from "hono/utils/http-status";

type Entry = { status: ContentfulStatusCode; meaning: string };

export const ERROR_CODES = {
  // The request itself.
  not_found: { status: 404, meaning: "no route for this method and path" },
  method_not_allowed: { status: 405, meaning: "the path exists, not for this method (`details.allowed`, and `Allow`)" },
  payload_too_large: { status: 413, meaning: "the request body is over the limit (`details.maxBytes`)" },
  unsupported_media_type: { status: 415, meaning: "a body that is not `application/json`" },
  bad_request: { status: 400, meaning: "a request GraphQL's WebSocket endpoint cannot upgrade" },
  malformed_request: { status: 400, meaning: "the request is not valid HTTP (answered before any route)" },
  request_timeout: { status: 408, meaning: "the request did not arrive in time" },
  request_header_fields_too_large: { status: 431, meaning: "the request headers are larger than the server accepts" },
  rate_limited: {
    status: 429,
    meaning:
      "this client's free budget is spent: retry after `Retry-After` (`details.cost`, `details.budget` points per `details.windowSeconds`; [Limits](#limits))",
  },
  invalid_json: { status: 400, meaning: "the body is not JSON" },
  invalid_body: { status: 400, meaning: "the body is JSON but not an object" },
  unknown_field: { status: 400, meaning: "the body names a field the route does not take" },
  address_required: { status: 400, meaning: "the body has no `address`" },
  invalid_address_checksum: { status: 400, meaning: "a mixed-case address that is not its EIP-55 checksum" },
  invalid_range: { status: 400, meaning: "`toBlock` is before `fromBlock`" },
  range_too_large: { status: 400, meaning: "more blocks than one request may span" },
  until_before_since: { status: 400, meaning: "`until` is before the hedge ledger starts" },
  history_range: { status: 400, meaning: "a history series over more points than one answer holds, or an empty range" },
  invalid_argument: { status: 400, meaning: "an export's filter, order or cursor is malformed (`details.argument`)" },
  limit_exceeded: { status: 400, meaning: "an export's page size or filter is over its limit (`details.limit`)" },
  // The block asked for.
  block_before_deployment: { status: 400, meaning: "the block is before the contract was deployed" },
  block_not_canonical: { status: 400, meaning: "the block hash asked for is not on the indexed chain" },
  no_registry_version: { status: 400, meaning: "no account registry version applies at that block" },
  block_not_indexed: { status: 422, meaning: "the block is past the indexed head: retry once it is indexed" },
  block_not_mined: { status: 422, meaning: "the block is past the chain's latest block" },
  // What was asked for does not exist here.
  statement_not_found: { status: 404, meaning: "no signed statement with this `attestation_hash`" },
  binding_not_found: { status: 404, meaning: "no signer binding with this `attestation_hash` was published here" },
  binding_not_configured: {
    status: 404,
    meaning: "no attestation key is configured: the operator signs every artifact",
  },
  registry_not_configured: { status: 404, meaning: "no account registry version is configured for this network" },
  registry_version_not_found: { status: 404, meaning: "no account registry version of that number" },
  not_configured: { status: 404, meaning: "no security contact is configured (security.txt)" },
  expired: { status: 404, meaning: "the configured security.txt has expired" },
  // Refused.
  forbidden: { status: 403, meaning: "issuing a statement on demand needs the operator's admin token" },
  operator_owned_address: {
    status: 403,
    meaning: "instant reads of the operator's own accounts and contracts are refused",
  },
  not_a_contract: { status: 422, meaning: "no contract code at the address" },
  not_an_erc20: { status: 422, meaning: "the contract does not answer as an ERC-20" },
  lending_market_not_configured: { status: 404, meaning: "this network has no isolated lending market configured" },
  // Paid (x402).
  payment_required: { status: 402, meaning: "the route is paid per request: see the `PAYMENT-REQUIRED` header" },
  payment_rejected: { status: 402, meaning: "the payment was refused (`details.reason`); nothing was charged" },
  invalid_payment_header: { status: 400, meaning: "`PAYMENT-SIGNATURE` is not an x402 v2 exact EVM payment" },
  payment_already_used: { status: 409, meaning: "this payment authorization was presented before: sign a new one" },
  payment_in_progress: {
    status: 409,
    meaning: "a request with this authorization is still in progress: retry after `Retry-After`",
  },
  artifact_unverifiable: {
    status: 503,
    meaning: "the artifact about to be sold fails the buyer's own verification; nothing was charged",
  },
  // Not now: retry.
  not_indexed_yet: { status: 503, meaning: "the indexer has not reached the protocol's first block yet" },
  indexer_catching_up: {
    status: 503,
    meaning: "the indexer is behind the chain: a statement dated now would be stale",
  },
  database_unavailable: { status: 503, meaning: "the database is unreachable: retry after `Retry-After`" },
  chain_read_failed: { status: 503, meaning: "a chain read did not land: nothing is published rather than a guess" },
  chain_unavailable: { status: 503, meaning: "the chain's latest block could not be read" },
  reader_rpc_budget_exhausted: {
    status: 503,
    meaning:
      "the RPC calls (or venue requests) readers may cause are spent for now: what is cached still answers; retry after `Retry-After`",
  },
  registry_proof_invalid: { status: 503, meaning: "the account registry's proof does not check out" },
  fee_rule_mismatch: {
    status: 503,
    meaning: "a PSM's getFee disagrees with the fee rule applied: no plan rather than a wrong one",
  },
  signer_not_configured: { status: 503, meaning: "no signing key is configured (for that date)" },
  attestation_unavailable: { status: 503, meaning: "no signed statement is available yet; nothing was charged" },
  facilitator_unavailable: { status: 503, meaning: "the x402 facilitator did not say which payment kinds it supports" },
  page_not_built: { status: 503, meaning: "the reserves page is not built (`npm run build:page`)" },
  // Ours.
  internal_error: { status: 500, meaning: "a fault of the service: report `details.requestId`" },
  response_contract_violated: {
    status: 500,
    meaning: "the answer broke its published schema (checked when KUSD_CHECK_RESPONSES is set)",
  },
} as const satisfies Record<string, Entry>;

export type CatalogedCode = keyof typeof ERROR_CODES;
/** A query or body parameter that failed its check, named after it (400). */
export type ParameterCode = `invalid_${string}`;
export type ErrorCode = CatalogedCode | ParameterCode;

export const PARAMETER_CODE = /^invalid_[A-Za-z][A-Za-z0-9_]*$/;

export function statusOf(code: ErrorCode): ContentfulStatusCode {
  return Object.hasOwn(ERROR_CODES, code) ? ERROR_CODES[code as CatalogedCode].status : 400;
}

export const TABLE_START =
  "<!-- generated from api/http/error-codes.ts by npm run gen:api-contracts: do not edit by hand -->";
export const TABLE_END = "<!-- end of generated error codes -->";

/** docs/api.md's table of codes, markers included. */
export function errorCodeTable(): string {
  const rows = Object.entries(ERROR_CODES).map(
    ([code, e]) => `| \`${code}\` | ${e.status} | ${e.meaning.replaceAll("|", "\\|")} |`,
  );
  return [
    TABLE_START,
    "",
    "| code | status | meaning |",
    "|---|---:|---|",
    ...rows,
    "| `invalid_<parameter>` | 400 | that query or body parameter failed its check (`details` names it and its value) |",
    "",
    TABLE_END,
  ].join("\n");
}

/** `doc` with its generated table replaced. */
export function withErrorCodeTable(doc: string): string {
  const start = doc.indexOf(TABLE_START);
  const end = doc.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error(`the document has no ${TABLE_START} … ${TABLE_END} block`);
  return `${doc.slice(0, start)}${errorCodeTable()}${doc.slice(end + TABLE_END.length)}`;
}
