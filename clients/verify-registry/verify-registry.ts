/**
 * `kusd-verify-registry <registry URL or file> [--rpc-url <url>] [--json]`: re-checks every
 * signature, digest and predicate of a published registry document (verify-registry.ts). With
 * --rpc-url each predicate is re-run with eth_call at its observed block; without it, against
 * the rpc_used each observation names. Exit 0 verified, 1 not verified, 2 usage or I/O error.
 */
import { parseArgs } from "node:util";
import { verifyRegistryDocument } from "@kusd/core";
import { BaseError, createPublicClient, type Hex, HttpRequestError, http, TimeoutError } from "viem";
import { loadSource, type SourceIo, UsageError } from "../../packages/verify/src/node.js";

export const REGISTRY_USAGE = `Usage: kusd-verify-registry <registry URL or file> [--rpc-url <url>] [--offline] [--json]

Re-checks a published account registry document: every membership signature, digest and
on-chain predicate (re-run with eth_call at the block each observation names).

  --rpc-url <url>   the RPC for the predicates (default: the rpc_used each observation names)
  --offline         check signatures and digests only, no RPC
  --json            print one JSON object
  -h, --help        print this help

Exit codes:
  0  verified
  1  not verified (a signature, digest or predicate does not hold)
  2  usage error, or an I/O error: the document or the RPC could not be read, so no verdict
`;

export async function runVerifyRegistry(
  argv: string[],
  io: SourceIo = {},
): Promise<{ exitCode: 0 | 1 | 2; output: string }> {
  let json = false;
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        "rpc-url": { type: "string" },
        offline: { type: "boolean" },
        json: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    });
    json = !!values.json;
    if (values.help) return { exitCode: 0, output: REGISTRY_USAGE };
    if (positionals.length !== 1) throw new UsageError("exactly one registry URL or file is required");
    const text = await loadSource(positionals[0]!, io);
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch {
      doc = null;
    }
    const clients = new Map<string, ReturnType<typeof createPublicClient>>();
    let unreachable: { url: string; error: BaseError } | undefined;
    const ethCall = values.offline
      ? null
      : async (to: string, data: Hex, block: number) => {
          const url = values["rpc-url"] ?? firstRpc(doc);
          if (!url) throw new Error("no RPC URL: pass --rpc-url");
          if (!clients.has(url))
            clients.set(url, createPublicClient({ transport: http(url, { retryCount: 1, timeout: 10_000 }) }));
          try {
            return (await clients.get(url)!.call({ to: to as Hex, data, blockNumber: BigInt(block) })).data ?? "0x";
          } catch (error) {
            // An RPC that answered "reverted" is a verdict; one that could not be reached is not.
            if (
              error instanceof BaseError &&
              error.walk((e) => e instanceof HttpRequestError || e instanceof TimeoutError)
            )
              unreachable ??= { url, error };
            throw error;
          }
        };
    const result = await verifyRegistryDocument(doc, ethCall);
    if (unreachable)
      throw new Error(
        `could not read the RPC ${unreachable.url} (${unreachable.error.shortMessage}): no verdict; pass a reachable --rpc-url`,
      );
    const output = json
      ? `${JSON.stringify(result, null, 2)}\n`
      : `${result.checks.map((c) => `${c.ok ? "ok  " : "FAIL"} ${c.name}${c.detail ? `: ${c.detail}` : ""}`).join("\n")}\n${result.verified ? "VERIFIED" : "NOT VERIFIED"}\n`;
    return { exitCode: result.verified ? 0 : 1, output };
  } catch (e) {
    // Usage and I/O errors alike: no verdict was reached (exit 2), never a thrown exception.
    const usage = e instanceof UsageError || (e as { code?: string }).code?.startsWith("ERR_PARSE_ARGS");
    const message = (e as Error).message;
    return {
      exitCode: 2,
      output: json
        ? `${JSON.stringify({ verified: false, error: message })}\n`
        : `error: ${message}\n${usage ? REGISTRY_USAGE : ""}`,
    };
  }
}

/** The first RPC a downloaded (untrusted) registry names in an observation, if any. */
const firstRpc = (doc: unknown): string | undefined => {
  const entries = (doc as { registry?: { entries?: unknown } } | null)?.registry?.entries;
  if (!Array.isArray(entries)) return undefined;
  return entries
    .map(
      (e) => (e as { statement?: { observation?: { rpc_used?: unknown } } } | null)?.statement?.observation?.rpc_used,
    )
    .find((u): u is string => typeof u === "string");
};
