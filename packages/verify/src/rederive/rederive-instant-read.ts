/**
 * A signed instant read (POST /instant-read) re-read from the reader's own RPC: the RPC must serve
 * the chain the read is of (checked first: an ethereum read needs an Ethereum RPC), the block is
 * found by the hash the payload signs (EIP-1898), the token's symbol, decimals and total supply are
 * read there with the gateway's own read plan, and the payload is assembled again with its own
 * assembler (buildInstantReadPayload): every signed figure equal or differs.
 */
import {
  buildInstantReadPayload,
  groupAmount,
  type InstantReadPayload,
  InstantReadPayloadSchema,
  type NetworkConfig,
} from "@kusd/core";
import {
  AbiDecodingDataSizeTooSmallError,
  AbiDecodingZeroDataError,
  BaseError,
  ContractFunctionRevertedError,
  ContractFunctionZeroDataError,
  createPublicClient,
  type Hex,
  type Transport,
} from "viem";
import { readErc20 } from "../read-plan/erc20-reads.js";
import { classifyFigures } from "./classify.js";
import type { FigureRow } from "./figure-rows.js";
import { NetworkMismatchError } from "./network-check.js";
import type { Check } from "./rederive-checks.js";
import { type PinnedBlock, pinnedBlock, pinnedClients, RederivationError } from "./rederive-statement.js";

/** A signed payload of this kind is an instant read. */
export const isInstantReadPayload = (payload: unknown): boolean =>
  (payload as { kind?: unknown } | null)?.kind === InstantReadPayloadSchema.shape.kind.value;

/** What the payload says the read is (which token, on which chain, at which block, signed when): given, not figures. */
const READ_FIELDS = new Set(["kind", "chain", "chain_id", "address", "block_number", "block_hash", "timestamp"]);

const CHAIN_NAMES: Record<InstantReadPayload["chain"], string> = { base: "a Base", ethereum: "an Ethereum" };

export type InstantReadRederivation = {
  block: PinnedBlock;
  rows: FigureRow[];
  failedReads: string[];
  checks: Check[];
};

type Reads = { symbol: string | null; decimals: number | null; totalSupply: bigint | null };

/** The token's own answer (a revert, no data, not the ERC-20 shape), as against an RPC that did not answer. */
const contractAnswered = (e: unknown) =>
  e instanceof BaseError &&
  e.walk(
    (x) =>
      x instanceof ContractFunctionRevertedError ||
      x instanceof ContractFunctionZeroDataError ||
      x instanceof AbiDecodingZeroDataError ||
      x instanceof AbiDecodingDataSizeTooSmallError,
  ) !== null;

/** The payload as the reader's reads assemble it; a figure whose read the token refused is null. */
function assemble(p: InstantReadPayload, block: PinnedBlock, r: Reads): unknown {
  const pin = { number: Number(block.number), hash: block.hash, timestamp: block.timestamp };
  if (r.symbol !== null && r.decimals !== null && r.totalSupply !== null)
    return buildInstantReadPayload({
      chain: p.chain,
      chainId: p.chain_id,
      address: p.address,
      symbol: r.symbol,
      decimals: r.decimals,
      totalSupply: r.totalSupply,
      block: pin,
      timestamp: p.timestamp,
    });
  return {
    ...p,
    symbol: r.symbol,
    decimals: r.decimals,
    total_supply_raw: r.totalSupply?.toString() ?? null,
    total_supply_grouped: r.totalSupply !== null && r.decimals !== null ? groupAmount(r.totalSupply, r.decimals) : null,
    block_timestamp: block.timestamp,
  };
}

/** The unsigned copies beside the signed bytes (`token`), against the signed payload. */
function copiesCheck(p: InstantReadPayload, artifact: unknown): Check[] {
  const token = (artifact as { token?: Record<string, unknown> } | null)?.token;
  if (!token || typeof token !== "object") return [];
  const signed: Record<string, unknown> = {
    symbol: p.symbol,
    decimals: p.decimals,
    totalSupplyGrouped: p.total_supply_grouped,
  };
  const altered = Object.keys(signed).filter((k) => token[k] !== signed[k]);
  return [
    {
      name: "token copies",
      ok: altered.length === 0,
      detail:
        altered.length === 0
          ? "token.symbol, token.decimals and token.totalSupplyGrouped equal the signed payload's"
          : `token.${altered.join(", token.")} beside the signed bytes differ from the signed payload's`,
    },
  ];
}

export async function rederiveInstantRead(
  payload: unknown,
  artifact: unknown,
  o: { rpc: string | Transport; network: NetworkConfig; networkName: string },
): Promise<InstantReadRederivation> {
  const parsed = InstantReadPayloadSchema.safeParse(payload);
  if (!parsed.success)
    throw new RederivationError(
      "statement_unreadable",
      `not an instant read's signed payload: ${parsed.error.issues[0]?.path.join(".")}: ${parsed.error.issues[0]?.message}`,
    );
  const p = parsed.data;
  const named = o.network.chains[p.chain].id;
  if (p.chain_id !== named)
    throw new RederivationError(
      "statement_unreadable",
      `the read says it is of ${p.chain}, chain ${p.chain_id}; ${p.chain} is chain ${named} in the network document (${o.networkName})`,
    );
  const number = BigInt(p.block_number);
  const hash = p.block_hash.toLowerCase() as Hex;
  const { transport, client } = pinnedClients(o.rpc, number, hash);
  const served = await createPublicClient({ transport })
    .getChainId()
    .catch((e: Error) => {
      throw new RederivationError("rpc_failed", `the RPC did not answer eth_chainId: ${e.message.split("\n")[0]}`);
    });
  if (served !== p.chain_id)
    throw new NetworkMismatchError(
      `the instant read is of ${p.chain} (chain ${p.chain_id}) and the RPC given serves chain ${served}: pass ${CHAIN_NAMES[p.chain]} RPC as --rpc`,
      { network: o.networkName, expected: String(p.chain_id), found: String(served) },
    );
  const block = await pinnedBlock(client, number, hash);
  const settled = await readErc20(client, p.address, number);
  const failedReads: string[] = [];
  const value = <T>(name: string, r: PromiseSettledResult<T>): T | null => {
    if (r.status === "fulfilled") return r.value;
    const cause = ((r.reason as BaseError)?.shortMessage ?? String(r.reason)).split("\n")[0];
    if (!contractAnswered(r.reason))
      throw new RederivationError("rpc_failed", `the RPC did not answer ${name}() at block ${hash}: ${cause}`);
    failedReads.push(`${name}() on ${p.address} at block ${p.block_number}: ${cause}`);
    return null;
  };
  const reads: Reads = {
    symbol: value("symbol", settled.symbol),
    decimals: value("decimals", settled.decimals),
    totalSupply: value("totalSupply", settled.totalSupply),
  };
  const rows = classifyFigures<Reads>({
    published: payload,
    inputs: reads,
    build: (r) => assemble(p, block, r),
    resting: [],
    skip: (f) => READ_FIELDS.has(f),
  });
  return {
    block,
    rows,
    failedReads,
    checks: [
      {
        name: "chain",
        ok: true,
        detail: `the RPC serves chain ${served}, ${p.chain} as the read is of; ${p.address} read at block ${p.block_number} by its hash`,
      },
      ...copiesCheck(p, artifact),
    ],
  };
}
