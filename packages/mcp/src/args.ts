/**
 * Command line of `kusd-mcp`, the MCP server an agent runs beside itself over stdio. Strict like
 * the other CLIs: an unknown option or a malformed value is a usage error, never a guess (a cap
 * of "1,5" must not become no cap).
 */
import { parseArgs } from "node:util";
import { type Address, getAddress, type Hex, isAddress, isHex } from "viem";
import { UsageError } from "../../verify/src/node.js";

export const DEFAULT_KEY_ENV = "KUSD_MCP_PRIVATE_KEY";

export const MCP_USAGE = `Usage: kusd-mcp --api <URL> [--max-spend <USDC>] (--operator <address> | --signer <address>)
  [--key-env <VAR> (${DEFAULT_KEY_ENV})] [--network <file>]

An MCP server over stdio for an agent: every tool of the kUSD API's MCP server (<URL>/mcp), with
the paid tools paid from the agent's own key, here, never sent anywhere: it signs an x402 payment
(USDC, EIP-3009) only while this session's total stays within --max-spend, verifies every signed
artifact on this machine and returns the verdict with it. verify_statement and verify_report also
run here: a statement's figures or a report are re-derived from the RPC and venue the agent names
(its own node included), with kusd-verify's code; with the tool input l1Rpc (and l1BlockHash), the
block is proven from the output roots Base posts on Ethereum (kusd-verify's --l1-rpc), or pending.

  --api <URL>             the kUSD API (e.g. http://localhost:42069)
  --max-spend <USDC>      the most this session may pay in total (default 0: paid tools refused)
  --operator <address>    trust the operator's signer binding (<URL>/api/por/signer-registry)
                          only when this account signed it, or
  --signer <address>      trust this one signer
  --key-env <VAR>         the environment variable holding the paying key (default ${DEFAULT_KEY_ENV})
  --network <file>        the network document verify_report reads the contracts from (default: Base's,
                          as kusd-verify ships it; the devnet's is devnet/network.json)
  -h, --help              print this help

Without a key, or with --max-spend 0, the paid tools say their price and pay nothing.`;

export type McpTrust = { operator: Address } | { signer: Address };

export type McpCommand =
  | { kind: "help" }
  | {
      kind: "serve";
      api: string;
      /** The cap as the agent wrote it, in USDC (decimal text). */
      maxSpend: string;
      trust: McpTrust | null;
      key: Hex | null;
      keyEnv: string;
      /** verify_report's network document (null: Base's, as kusd-verify ships it). */
      network: string | null;
    };

function address(option: string, value: string): Address {
  if (!isAddress(value)) throw new UsageError(`${option}: not an address (or a wrong checksum): ${value}`);
  return getAddress(value);
}

export function parseMcpArgs(argv: string[], env: Readonly<Record<string, string | undefined>>): McpCommand {
  let values: ReturnType<typeof parse>["values"];
  try {
    ({ values } = parse(argv));
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  if (values.help) return { kind: "help" };
  if (!values.api) throw new UsageError("--api is required: the kUSD API's URL");
  let api: URL;
  try {
    api = new URL(values.api);
  } catch {
    throw new UsageError(`--api: not a URL: ${values.api}`);
  }
  if (api.protocol !== "http:" && api.protocol !== "https:") throw new UsageError("--api: an http(s) URL");
  const maxSpend = values["max-spend"] ?? "0";
  if (!/^\d{1,9}(\.\d{1,6})?$/.test(maxSpend))
    throw new UsageError(`--max-spend: an amount of USDC with at most 6 decimals, got ${maxSpend}`);
  if (values.operator && values.signer) throw new UsageError("--operator or --signer, not both");
  const trust = values.operator
    ? { operator: address("--operator", values.operator) }
    : values.signer
      ? { signer: address("--signer", values.signer) }
      : null;
  const keyEnv = values["key-env"] ?? DEFAULT_KEY_ENV;
  const raw = env[keyEnv];
  if (raw !== undefined && raw !== "" && (!isHex(raw) || raw.length !== 66))
    throw new UsageError(`${keyEnv} must hold a private key: 0x and 64 hex digits`);
  const key = raw ? (raw as Hex) : null;
  // A key that may pay must have something to check what it buys against.
  if (key && Number(maxSpend) > 0 && !trust)
    throw new UsageError("give --operator or --signer: what is bought is verified before it is returned");
  return {
    kind: "serve",
    api: api.href.replace(/\/$/, ""),
    maxSpend,
    trust,
    key,
    keyEnv,
    network: values.network ?? null,
  };
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      api: { type: "string" },
      "max-spend": { type: "string" },
      operator: { type: "string" },
      signer: { type: "string" },
      "key-env": { type: "string" },
      network: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
}
