/**
 * `kusd-verify --rpc`: the statement's figures re-derived from the reader's RPC (and, with
 * --proofs, proved to one block hash), as checks and rows of the verdict.
 */
import { readFile } from "node:fs/promises";
import { createPublicClient, type Hex, http } from "viem";
import type { NetworkDocument } from "../../../../core/network/document.js";
import { networkOf } from "../rederive/network.js";
import { RederivationError, rederiveStatement } from "../rederive/rederive-statement.js";
import type { RederiveRequest } from "./args.js";
import { SourceError } from "./errors.js";
import type { Check, RederiveResult } from "./report.js";

/** Base's network document as this package ships it (networks/base.json), from the sources or the build. */
async function defaultNetwork(): Promise<{ doc: NetworkDocument; name: string }> {
  for (const rel of ["../networks/base.json", "../../networks/base.json"]) {
    try {
      return { doc: JSON.parse(await readFile(new URL(rel, import.meta.url), "utf8")), name: "Base (shipped)" };
    } catch {
      // the other layout (sources or build)
    }
  }
  throw new SourceError("the Base network document shipped with kusd-verify is missing", {
    source: "networks/base.json",
  });
}

async function networkDocument(path: string | null): Promise<{ doc: NetworkDocument; name: string }> {
  if (path === null) return defaultNetwork();
  try {
    return { doc: JSON.parse(await readFile(path, "utf8")), name: path };
  } catch (cause) {
    throw new SourceError(`cannot read the network document ${path}: ${(cause as Error).message}`, {
      source: path,
      cause,
    });
  }
}

/** The block hash the proofs rest on, and who vouches for it. */
async function anchorOf(
  r: RederiveRequest,
  signed: { report_block: number; report_block_hash: Hex },
): Promise<{ blockHash: Hex; source: string } | null> {
  if (!r.proofs) return null;
  if (r.proofs.blockHash) return { blockHash: r.proofs.blockHash, source: "--block-hash" };
  if (r.proofs.headerRpc) {
    const client = createPublicClient({ transport: http(r.proofs.headerRpc, { retryCount: 1 }) });
    const block = await client.getBlock({ blockNumber: BigInt(signed.report_block) }).catch((e: Error) => {
      throw new SourceError(
        `--header-rpc did not answer for block ${signed.report_block}: ${e.message.split("\n")[0]}`,
        {
          source: r.proofs!.headerRpc!,
        },
      );
    });
    return { blockHash: block.hash, source: `block ${signed.report_block} on --header-rpc ${r.proofs.headerRpc}` };
  }
  return {
    blockHash: signed.report_block_hash,
    source:
      "the statement's own report_block_hash, which only --rpc confirms (pass --block-hash or --header-rpc to rest on a hash you chose)",
  };
}

export async function rederiveStep(r: RederiveRequest, payloadText: string): Promise<RederiveResult> {
  const { doc, name } = await networkDocument(r.network);
  const payload = JSON.parse(payloadText) as { report_block: number; report_block_hash: Hex };
  const base = { rpc: r.rpc, network: name, rows: [], failedReads: [], proofs: null };
  try {
    const network = networkOf(doc, r.rpc);
    const anchor = await anchorOf(r, payload);
    const d = await rederiveStatement(payload, { rpc: r.rpc, network, proofs: anchor });
    const chain = d.rows.filter((x) => x.equal !== null);
    const differ = chain.filter((x) => x.equal === false);
    const recorded = d.rows.filter((x) => x.equal === null);
    const checks: Check[] = [
      { name: "block", ok: true, detail: `${d.block.number} ${d.block.hash} is on the chain of ${r.rpc}` },
      {
        name: "figures",
        ok: differ.length === 0,
        detail:
          differ.length === 0
            ? `${chain.length} figures re-derived from ${r.rpc} equal the signed ones; ${recorded.length} rest on the venue equity recorded at signing`
            : `${differ.length} of ${chain.length} re-derived figures differ: ${differ.map((x) => x.figure).join(", ")}`,
      },
    ];
    if (d.proofs) {
      const failed = d.proofs.reads.filter((x) => x.status === "failed");
      const proven = d.proofs.reads.filter((x) => x.status === "proven").length;
      const trusted = d.proofs.reads.filter((x) => x.status === "rpc-trusted").length;
      checks.push({
        name: "proofs",
        ok: d.proofs.ok,
        detail: !d.proofs.header.ok
          ? d.proofs.header.detail
          : failed.length > 0
            ? failed
                .map((x) => `${x.read}: ${x.detail}${x.slot ? ` (account ${x.account}, slot ${x.slot})` : ""}`)
                .join("; ")
            : `${proven} reads proved against block hash ${d.proofs.anchor.blockHash} (${d.proofs.anchor.source}); ${trusted} RPC-trusted`,
      });
    }
    return {
      ...base,
      block: { number: Number(d.block.number), hash: d.block.hash },
      rows: d.rows,
      failedReads: d.failedReads,
      proofs: d.proofs,
      checks,
    };
  } catch (e) {
    if (e instanceof RederivationError && e.code !== "rpc_failed")
      return { ...base, block: null, checks: [{ name: "block", ok: false, detail: e.message }] };
    if (e instanceof RederivationError || e instanceof SourceError) throw new SourceError(e.message, { source: r.rpc });
    throw e;
  }
}
