/**
 * Every figure a signed statement signs, re-derived from the reader's own RPC: the chain read at
 * the statement's block (pinned by its hash, EIP-1898) with the read plan the service itself uses
 * (read-plan/chain-snapshot.ts: the same calls, in Multicall3 where it batches them), the same
 * pure assembler (packages/core/src/reserves/por, packages/core/src/attestation/statement-payload.ts), and the venue equity
 * the statement recorded, which no one can read again. Nothing is asked of the service.
 */

import type { ChainSnapshot, NetworkConfig, PrecedentRedemption } from "@kusd/core";
import {
  buildPorReport,
  buildStatementPayload,
  KusdError,
  none,
  type StatementPayload,
  type VenueBasis,
  venueReadCommand,
} from "@kusd/core";
import { type Address, createPublicClient, type Hex, http, type PublicClient, type Transport } from "viem";
import { proveReads } from "../proofs/prove-reads.js";
import { anchorElsewhere, provenRows } from "../proofs/proven-rows.js";
import type { ProofReport } from "../proofs/read-proof.js";
import { type RecordedRead, RecordingReader } from "../proofs/recorded-reads.js";
import { listedAccounts, snapshotAddresses } from "../read-plan/addresses.js";
import { readChainSnapshot } from "../read-plan/chain-snapshot.js";
import { classifyFigures, type RestingInput } from "./classify.js";
import type { FigureRow } from "./figure-rows.js";
import { checkNetwork } from "./network-check.js";
import { pinnedToBlockHash } from "./pin-to-hash.js";
import { bracketRecordedEquity, type ReaderVenue } from "./venue-bracket.js";

export class RederivationError extends KusdError<{ block?: string; blockHash?: string; cause?: string }> {
  override name = "RederivationError";
  readonly code: "block_not_on_chain" | "statement_unreadable" | "report_unreadable" | "rpc_failed";
  constructor(
    code: RederivationError["code"],
    message: string,
    details: { block?: string; blockHash?: string; cause?: string } = {},
  ) {
    super(message, details);
    this.code = code;
  }
}

/** The block a statement is pinned to, as the reader's RPC has it. */
export type PinnedBlock = { number: bigint; hash: Hex; timestamp: number; stateRoot: Hex };

export type Rederivation = {
  block: PinnedBlock;
  rows: FigureRow[];
  /** The statement payload as the reader's reads assemble it (with the recorded venue equity). */
  rederived: StatementPayload;
  /** Reads the reader's RPC failed: the figures resting on them are re-derived as unknown (null). */
  failedReads: string[];
  /** Every read made, with its answer. */
  reads: RecordedRead[];
  /** With `proofs`: each read proved against the trusted block hash, or why it could not be. */
  proofs: ProofReport | null;
};

export type RederiveOptions = {
  /** The reader's RPC (a URL, or a viem transport: the page and the tests pass their own). */
  rpc: string | Transport;
  /** The network the statement is about: its contracts and accounts, from the network document. */
  network: NetworkConfig;
  /** The network document's name in messages (its file, or "Base (shipped)"). */
  networkName?: string;
  /** Check every storage read with eth_getProof against the header of this block hash (who vouches for it in `source`). */
  proofs?: { blockHash: Hex; source: string } | null;
  /** The reader's venue: the recorded equity is bracketed in its account value history (absent: shown, not checked). */
  venue?: ReaderVenue | null;
};

/** The signed payload's fields this module reads; the rest are compared as they come. */
type SignedFields = Partial<Pick<StatementPayload, "network_document_sha256">> &
  Pick<
    StatementPayload,
    | "report_block"
    | "report_block_hash"
    | "timestamp"
    | "signer_role"
    | "signer_binding"
    | "signer_binding_hash"
    | "report_endpoint"
    | "offchain"
    | "chains"
  >;

function signedFields(payload: unknown): SignedFields & { report_block_hash: Hex } {
  const p = payload as Partial<SignedFields> | null;
  const ok =
    p !== null &&
    typeof p === "object" &&
    Number.isSafeInteger(p.report_block) &&
    typeof p.report_block_hash === "string" &&
    /^0x[0-9a-fA-F]{64}$/.test(p.report_block_hash) &&
    typeof p.timestamp === "number" &&
    Array.isArray(p.chains) &&
    p.chains.length > 0 &&
    typeof p.offchain === "object" &&
    p.offchain !== null;
  if (!ok)
    throw new RederivationError(
      "statement_unreadable",
      "not a signed statement payload: report_block, report_block_hash, timestamp, chains and offchain are needed",
    );
  return p as SignedFields & { report_block_hash: Hex };
}

/** The block by its hash on the reader's chain, or a refusal: a reorg removed it, or the number does not match. */
export async function pinnedBlock(client: PublicClient, number: bigint, hash: Hex): Promise<PinnedBlock> {
  let block: Awaited<ReturnType<PublicClient["getBlock"]>> | null;
  try {
    block = await client.getBlock({ blockHash: hash });
  } catch (e) {
    const cause = (e as Error).message.split("\n")[0];
    if (/not found|unknown block|could not be found/i.test(cause ?? ""))
      throw new RederivationError(
        "block_not_on_chain",
        `block ${hash} is not on this RPC's chain: the statement's block was replaced by a reorg, or the RPC is on another chain`,
        { block: String(number), blockHash: hash, cause },
      );
    throw new RederivationError("rpc_failed", `the RPC did not answer for block ${hash}: ${cause}`, {
      blockHash: hash,
      cause,
    });
  }
  if (!block || block.number !== number)
    throw new RederivationError(
      "block_not_on_chain",
      block
        ? `block ${hash} is number ${block.number} on this RPC's chain, the statement says ${number}`
        : `block ${hash} is not on this RPC's chain: the statement's block was replaced by a reorg, or the RPC is on another chain`,
      { block: String(number), blockHash: hash },
    );
  return { number, hash, timestamp: Number(block.timestamp), stateRoot: block.stateRoot };
}

/** What a report rests on beyond the chain reads: the venue's answer and the redemptions up to the block. */
export type ReportBasis = {
  /** The venue's answer as the report used it (a statement: the equity it signs, as recorded). */
  venue: VenueBasis;
  /** The precedent's inputs (from the PSMs' logs); none for a statement, which signs no precedent. */
  precedent?: { redemptions: PrecedentRedemption[]; kusdBurned: bigint };
  /** The service's own context, copied from what it published (never a figure): its URL, the RPC's head, whether it was the head. */
  served?: {
    canonicalEndpoint: string;
    /** The venue endpoint the service read (its pins): named in the report's source and command. */
    venueUrl: string | null;
    rpcChainLength: number | null;
    indexedHead: { blockNumber: bigint; timestamp: number };
    atHead: boolean;
  };
};

/** The report the assembler builds from `snapshot` at `block`, as the service builds it. */
export function reportFrom(
  snapshot: ChainSnapshot,
  network: NetworkConfig,
  block: PinnedBlock,
  basis: ReportBasis,
  endpoint: string,
) {
  const venue = basis.venue;
  const n = network;
  return buildPorReport({
    chainId: n.chains.base.id,
    documentSha256: n.documentSha256,
    snapshot,
    blockHash: block.hash,
    venue: {
      ...venue,
      url: basis.served ? basis.served.venueUrl : null,
      account: n.reporting.venue.account,
      readCommand: basis.served?.venueUrl ? venueReadCommand(basis.served.venueUrl, n.reporting.venue.account) : null,
    },
    precedent: {
      redemptions: basis.precedent?.redemptions ?? [],
      registry: n.registry.versions,
      kusdBurned: basis.precedent?.kusdBurned ?? 0n,
      completeAsOf: { blockNumber: block.number, timestamp: block.timestamp },
      kusd: n.kUSD.address,
      fromBlock: n.kUSD.startBlock,
      rpcUrl: n.reporting.publicRpc.base,
    },
    registry: n.registry.versions,
    addresses: { kUSD: n.kUSD.address, usdc: n.usdc.address, weth: n.weth.address, ethUsdFeed: n.reporting.ethUsdFeed },
    listed: listedAccounts(n),
    rpcChainLength: basis.served?.rpcChainLength ?? null,
    canonicalEndpoint: basis.served?.canonicalEndpoint ?? endpoint,
    commandRpcUrl: n.reporting.publicRpc.base,
    indexedHead: basis.served?.indexedHead ?? { blockNumber: block.number, timestamp: block.timestamp },
    atHead: basis.served?.atHead ?? false,
  });
}

/** The statement payload the assembler builds from `snapshot`, with `venueEquity` as the venue's answer. */
export function payloadFrom(
  snapshot: ChainSnapshot,
  network: NetworkConfig,
  signed: SignedFields,
  block: PinnedBlock,
  venueEquity: number | null,
): StatementPayload {
  // The statement signs no redemption precedent: nothing of the indexed history enters it.
  const venue: VenueBasis =
    venueEquity === null
      ? none("no venue equity was recorded")
      : {
          source: "recorded",
          state: { equityUsd: venueEquity },
          reason: null,
          ageSeconds: null,
          recorded: null,
          receivedAtMs: null,
        };
  const report = reportFrom(snapshot, network, block, { venue }, signed.report_endpoint);
  return buildStatementPayload(report, {
    timestamp: signed.timestamp,
    chainName: signed.chains[0]!.chain_name,
    signerRole: signed.signer_role,
    bindingUrl: signed.signer_binding,
    bindingHash: signed.signer_binding_hash,
  });
}

/** The reader's transport, and a client whose every read is pinned to block `hash` (EIP-1898). */
export function pinnedClients(
  rpc: RederiveOptions["rpc"],
  number: bigint,
  hash: Hex,
): { transport: Transport; client: PublicClient } {
  const transport = typeof rpc === "string" ? http(rpc, { batch: { batchSize: 100 }, retryCount: 1 }) : rpc;
  const client = createPublicClient({
    transport: pinnedToBlockHash(transport, number, hash),
    batch: { multicall: true },
  }) as PublicClient;
  return { transport, client };
}

/** A venue equity far from any a statement records: a figure that moves with it rests on it. */
export const PROBE_EQUITIES = [null, 0, 1e12];

/** What a statement signs that is not a figure: when, by whom, where, of which block and network (each checked on its own). */
export const SIGNING_FIELDS = new Set([
  "timestamp",
  "schema_version",
  "signer_role",
  "signer_binding",
  "signer_binding_hash",
  "report_endpoint",
  "report_block",
  "report_block_hash",
  "network_document_sha256",
  "offchain.venue_time",
  "chains[0].chain_name",
]);

/**
 * The recorded venue equity as a resting input: every figure that moves with it is bracketed when
 * the equity lies inside the venue's account value history around the time the venue answered,
 * and differs when it does not. Without a reader's venue it is shown, not checked.
 */
export async function recordedEquityInput<I>(
  venue: ReaderVenue | null | undefined,
  account: Address,
  recorded: number,
  timeMs: number,
  withEquity: (inputs: I, equity: number | null) => I,
): Promise<RestingInput<I>> {
  const bracket = venue ? await bracketRecordedEquity(venue, account, timeMs, recorded) : null;
  return {
    category: "bracketed",
    perturb: PROBE_EQUITIES.filter((e) => e !== recorded).map((e) => (i: I) => withEquity(i, e)),
    note: bracket
      ? `venue equity ${recorded} recorded at ${new Date(timeMs).toISOString()}: ${bracket.detail}`
      : `venue equity ${recorded} recorded at ${new Date(timeMs).toISOString()}: not bracketed (no venue to read its history)`,
    inside: bracket?.inside ?? null,
  };
}

/** Re-derives every figure of `payload` (a parsed signed_payload_canonical) from the reader's RPC. */
export async function rederiveStatement(payload: unknown, o: RederiveOptions): Promise<Rederivation> {
  const signed = signedFields(payload);
  const number = BigInt(signed.report_block);
  const hash = signed.report_block_hash.toLowerCase() as Hex;
  const { client } = pinnedClients(o.rpc, number, hash);
  await checkNetwork(client, o.network, o.networkName ?? o.network.name, number, {
    documentSha256: signed.network_document_sha256 ?? null,
    chainId: signed.chains[0]?.chain_id ?? null,
    addresses: [signed.chains[0]?.vault_address].filter((a): a is Address => typeof a === "string"),
  });
  const block = await pinnedBlock(client, number, hash);
  const reader = new RecordingReader(client, number, o.network.reporting.publicRpc.base);
  const addresses = snapshotAddresses(o.network);
  const snapshot = await readChainSnapshot(reader, addresses, block.timestamp);
  const recorded = signed.offchain.equity_usd;
  type Inputs = { snapshot: ChainSnapshot; equity: number | null };
  const assemble = (i: Inputs) => payloadFrom(i.snapshot, o.network, signed, block, i.equity);
  const resting =
    recorded === null
      ? []
      : [
          await recordedEquityInput<Inputs>(
            o.venue,
            o.network.reporting.venue.account,
            recorded,
            signed.offchain.venue_time ? Date.parse(signed.offchain.venue_time) : signed.timestamp * 1000,
            (i, equity) => ({ ...i, equity }),
          ),
        ];
  const again = assemble({ snapshot, equity: recorded });
  const rows = classifyFigures<Inputs>({
    published: payload,
    inputs: { snapshot, equity: recorded },
    build: assemble,
    resting,
    skip: (f) => SIGNING_FIELDS.has(f),
  });
  if (!o.proofs)
    return { block, rows, rederived: again, failedReads: snapshot.failedReads, reads: reader.reads, proofs: null };

  const anchor = { blockHash: o.proofs.blockHash.toLowerCase() as Hex, source: o.proofs.source };
  const proofs =
    anchor.blockHash === hash
      ? await proveReads(reader.reads, {
          client,
          blockNumber: number,
          chainId: o.network.chains.base.id,
          anchor,
        })
      : anchorElsewhere(anchor, hash);
  const rowsProved = await provenRows(rows, proofs, reader.reads, async (replay) =>
    assemble({ snapshot: await readChainSnapshot(replay(reader), addresses, block.timestamp), equity: recorded }),
  );
  return { block, rows: rowsProved, rederived: again, failedReads: snapshot.failedReads, reads: reader.reads, proofs };
}
