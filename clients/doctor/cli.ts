/**
 * Command line of `kusd-doctor` (the run in doctor.ts, its checks in checks.ts). The
 * configuration comes from the caller (`loadInput`, our network config in main.ts); this file
 * owns arguments, the RPC clients and exit codes: 0 ready (warnings allowed), 1 a check failed,
 * 2 no verdict.
 */
import { parseArgs } from "node:util";
import { createPublicClient, http, type PublicClient } from "viem";
import { UsageError } from "../../packages/verify/src/node.js";
import { runDoctor } from "./doctor.js";
import { renderDoctorTable } from "./render.js";
import { oneLine, RpcUnreachableError } from "./rpc-errors.js";
import type { DoctorInput } from "./types.js";

export const DOCTOR_USAGE = `Usage: kusd-doctor [--rpc-url <Base RPC URL>] [--ethereum-rpc-url <URL>] [--json]

Pre-flight check before indexing Base mainnet: asks your RPC provider whether the chain ids,
contract addresses, start blocks, price feeds, archive state and eth_getLogs range the indexer
is configured with will work, before a multi-hour backfill finds out.

  --rpc-url <URL>           Base RPC (default: env PONDER_RPC_URL_8453)
  --ethereum-rpc-url <URL>  Ethereum RPC, only its chain id is checked (default: env
                            PONDER_RPC_URL_1, then KUSD_READ_RPC_URL_1; skipped when none)
  --json                    print the report as one JSON object {ok, rows, requests, recommended}
  -h, --help                print this help

Exit codes:
  0  every check passed (warnings allowed)
  1  a check failed
  2  could not run: usage error, configuration error, or an RPC did not answer
`;

/** Per request; a wide eth_getLogs probe that takes longer counts as refused, as it would for the indexer. */
const RPC_TIMEOUT_MS = 10_000;

export async function runDoctorCli(
  argv: string[],
  env: NodeJS.ProcessEnv,
  loadInput: (env: NodeJS.ProcessEnv) => Promise<DoctorInput>,
): Promise<{ exitCode: 0 | 1 | 2; output: string }> {
  let json = false;
  const urls: string[] = [];
  try {
    const values = parse(argv);
    json = values.json ?? false;
    if (values.help) return { exitCode: 0, output: DOCTOR_USAGE };
    const baseUrl = rpcUrl("--rpc-url", values["rpc-url"] || env.PONDER_RPC_URL_8453?.split(",")[0]?.trim());
    if (!baseUrl) throw new UsageError("no Base RPC: pass --rpc-url <URL> or set PONDER_RPC_URL_8453");
    const ethereumUrl = rpcUrl(
      "--ethereum-rpc-url",
      values["ethereum-rpc-url"] || env.PONDER_RPC_URL_1 || env.KUSD_READ_RPC_URL_1,
    );
    urls.push(baseUrl, ...(ethereumUrl ? [ethereumUrl] : []));

    // The network config reads its RPC URLs from the environment: hand it the ones chosen here.
    const input = await loadInput({
      ...env,
      PONDER_RPC_URL_8453: baseUrl,
      ...(ethereumUrl ? { PONDER_RPC_URL_1: ethereumUrl } : {}),
    });
    const report = await runDoctor(input, {
      base: client(baseUrl),
      ethereum: ethereumUrl ? client(ethereumUrl) : null,
    });
    const output = json ? `${JSON.stringify(report, null, 2)}\n` : renderDoctorTable(report);
    return { exitCode: report.ok ? 0 : 1, output: redact(output, urls) };
  } catch (e) {
    // Usage, configuration and I/O errors alike: no verdict was reached (exit 2), never a throw.
    const usage = e instanceof UsageError;
    let message = e instanceof RpcUnreachableError || usage ? (e as Error).message : oneLine(e);
    if (e instanceof RpcUnreachableError) message = `${message} [${urls[e.details.chain === "base" ? 0 : 1] ?? "?"}]`;
    const output = json
      ? `${JSON.stringify({ ok: false, error: message })}\n`
      : `error: ${message}\n${usage ? DOCTOR_USAGE : ""}`;
    return { exitCode: 2, output: redact(output, urls) };
  }
}

function parse(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        "rpc-url": { type: "string" },
        "ethereum-rpc-url": { type: "string" },
        json: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    }).values;
  } catch (error) {
    // parseArgs throws TypeErrors with ERR_PARSE_ARGS_* codes for unknown or malformed options.
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

function rpcUrl(option: string, value: string | undefined): string | undefined {
  if (!value) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${option}: not a URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new UsageError(`${option}: an http(s) URL is required, got ${url.protocol}`);
  return value;
}

function client(url: string): PublicClient {
  return createPublicClient({ transport: http(url, { timeout: RPC_TIMEOUT_MS, retryCount: 1 }) }) as PublicClient;
}

/** A provider URL usually carries its API key in the path or query: print the host only. */
export function redactRpcUrl(url: string): string {
  const u = new URL(url);
  return `${u.protocol}//${u.host}${u.pathname !== "/" || u.search ? "/…" : ""}`;
}

function redact(output: string, urls: string[]): string {
  return urls.reduce((text, url) => text.split(url).join(redactRpcUrl(url)), output);
}
