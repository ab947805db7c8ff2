/**
 * `kusd-verify-registry <registry URL or file> [--rpc-url <url>] [--json]`: re-checks every
 * signature, digest and predicate of a published registry document (verify-registry.ts). With
 * --rpc-url each predicate is re-run with eth_call at its observed block; without it, against
 * the rpc_used each observation names. Exit 0 verified, 1 not verified, 2 usage or I/O error.
 */
import { parseArgs } from "node:util";
import { createPublicClient, http, type Hex } from "viem";
import { verifyRegistryDocument } from "../../core/registry/verify-document.js";
import { UsageError } from "../cli/errors.js";
import { loadSource, type SourceIo } from "../cli/source.js";

export const REGISTRY_USAGE = "Usage: kusd-verify-registry <registry URL or file> [--rpc-url <url>] [--offline] [--json]\n";

export async function runVerifyRegistry(argv: string[], io: SourceIo = {}): Promise<{ exitCode: 0 | 1 | 2; output: string }> {
  let json = false;
  try {
    const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { "rpc-url": { type: "string" }, offline: { type: "boolean" }, json: { type: "boolean" }, help: { type: "boolean" } } });
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
    const ethCall = values.offline
      ? null
      : async (to: string, data: Hex, block: number) => {
          const url = values["rpc-url"] ?? firstRpc(doc);
          if (!url) throw new Error("no RPC URL: pass --rpc-url");
          if (!clients.has(url)) clients.set(url, createPublicClient({ transport: http(url, { retryCount: 1, timeout: 10_000 }) }));
          return (await clients.get(url)!.call({ to: to as Hex, data, blockNumber: BigInt(block) })).data ?? "0x";
        };
    const result = await verifyRegistryDocument(doc, ethCall);
    const output = json
      ? `${JSON.stringify(result, null, 2)}\n`
      : `${result.checks.map((c) => `${c.ok ? "ok  " : "FAIL"} ${c.name}${c.detail ? `: ${c.detail}` : ""}`).join("\n")}\n${result.verified ? "VERIFIED" : "NOT VERIFIED"}\n`;
    return { exitCode: result.verified ? 0 : 1, output };
  } catch (e) {
    // Usage and I/O errors alike: no verdict was reached (exit 2), never a thrown exception.
    const usage = e instanceof UsageError || (e as { code?: string }).code?.startsWith("ERR_PARSE_ARGS");
    const message = (e as Error).message;
    return { exitCode: 2, output: json ? `${JSON.stringify({ verified: false, error: message })}\n` : `error: ${message}\n${usage ? REGISTRY_USAGE : ""}` };
  }
}

const firstRpc = (doc: any): string | undefined =>
  doc?.registry?.entries?.map((e: any) => e?.statement?.observation?.rpc_used).find((u: unknown) => typeof u === "string");
