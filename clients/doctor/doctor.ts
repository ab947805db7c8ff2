/**
 * The checks of `kusd-doctor`: what a multi-hour Base backfill would otherwise find out hours
 * in, asked of the operator's RPC provider up front. Right chain? Contracts where the config
 * says? Start blocks at or before the deployments? Feeds the feeds we mean? Historical state
 * served (archive)? How wide an eth_getLogs range the provider accepts?
 *
 * A check that gets a wrong answer is a FAIL row; an RPC that stops answering is not a check
 * result at all (RpcUnreachableError, exit 2 in the CLI), so "your provider is down" is never
 * reported as "your configuration is wrong".
 */
import {
  BaseError,
  ContractFunctionRevertedError,
  HttpRequestError,
  TimeoutError,
  createPublicClient,
  custom,
  formatUnits,
  getAddress,
  isAddressEqual,
  parseAbi,
  type Address,
  type Hex,
  type PublicClient,
} from "viem";
import { KusdError } from "../../core/errors.js";

export type DoctorContract = { name: string; address: Address; startBlock: number; creationTx: Hex | null; source: string };
export type DoctorFeed = { name: string; address: Address; expectDescription: RegExp | string; decimals: number; source: string; maxAgeSeconds?: number };
export type DoctorInput = {
  chainIds: { base: number; ethereum: number };
  contracts: DoctorContract[];
  feeds: DoctorFeed[];
  /** The eth_getLogs block range the indexer is configured with, or null for Ponder's automatic detection. */
  ethGetLogsBlockRange: number | null;
};

export type DoctorResult = "ok" | "FAIL" | "warn";
export type DoctorRow = { check: string; subject: string; result: DoctorResult; detail: string };
/** `recommended`: what to configure from what the provider showed (KUSD_ETH_GET_LOGS_BLOCK_RANGE). */
export type DoctorReport = { ok: boolean; rows: DoctorRow[]; requests: number; recommended: { ethGetLogsBlockRange: number | null } };
type Verdict = { result: DoctorResult; detail: string };

/** An RPC did not answer (connection, timeout, rate limit, auth): no verdict was reached. */
export class RpcUnreachableError extends KusdError<{ chain: "base" | "ethereum"; cause: unknown }> {
  override name = "RpcUnreachableError";
  readonly code: string = "rpc_unreachable";
  constructor(message: string, details: { chain: "base" | "ethereum"; cause: unknown }) {
    super(message, details);
  }
}

/** Ranges probed, widest first; the configured range is probed too, so its verdict is exact. */
export const LOG_RANGE_PROBES = [100_000, 10_000, 2_000, 1_000, 500, 100] as const;

const FEED_ABI = parseAbi([
  "function description() view returns (string)",
  "function decimals() view returns (uint8)",
  "function latestRoundData() view returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)",
]);
/** totalSupply(): any answer, even a revert, proves the node opened the state at that block. */
const TOTAL_SUPPLY = "0x18160ddd";

export async function runDoctor(input: DoctorInput, clients: { base: PublicClient; ethereum: PublicClient | null }): Promise<DoctorReport> {
  const counter = { requests: 0 };
  const base = countingClient(clients.base, counter);
  const ethereum = clients.ethereum && countingClient(clients.ethereum, counter);
  const rows: DoctorRow[] = [];
  const recommended: DoctorReport["recommended"] = { ethGetLogsBlockRange: null };
  const done = (): DoctorReport => ({ ok: rows.every((r) => r.result !== "FAIL"), rows, requests: counter.requests, recommended });

  const baseChain = await chainIdRow(base, "base", input.chainIds.base);
  rows.push(baseChain);
  rows.push(
    ethereum
      ? await chainIdRow(ethereum, "ethereum", input.chainIds.ethereum)
      : { check: "chain id", subject: "ethereum", result: "warn", detail: "not checked: no --ethereum-rpc-url, PONDER_RPC_URL_1 or KUSD_READ_RPC_URL_1" },
  );
  // On the wrong chain every contract check would fail for the same reason: report that one.
  if (baseChain.result === "FAIL") return done();

  const head = await guardedBase(() => base.getBlock({ blockTag: "latest" }));
  const headNumber = Number(head.number);

  const perContract = await Promise.all(input.contracts.map((c) => contractRows(base, c, headNumber)));
  rows.push(...perContract.flat());
  rows.push(...(await Promise.all(input.feeds.map((f) => feedRow(base, f, headNumber, Number(head.timestamp))))));
  rows.push(await archiveRow(base, input.contracts, headNumber));
  rows.push(await logRangeRow(base, input.contracts[0], input.ethGetLogsBlockRange, headNumber, recommended));
  return done();
}

/**
 * A client passing every request on to `client`, counting them. One count per JSON-RPC request
 * the doctor makes; retries happen inside `client`'s own transport and are not counted.
 */
export function countingClient(client: PublicClient, counter: { requests: number }): PublicClient {
  const request = (args: { method: string; params?: unknown }) => {
    counter.requests++;
    return client.request(args as Parameters<PublicClient["request"]>[0]);
  };
  return createPublicClient({ transport: custom({ request }, { retryCount: 0 }) }) as PublicClient;
}

async function chainIdRow(client: PublicClient, chain: "base" | "ethereum", expected: number): Promise<DoctorRow> {
  let actual: number;
  try {
    actual = await client.getChainId();
  } catch (cause) {
    throw new RpcUnreachableError(`the ${chain} RPC did not answer eth_chainId: ${oneLine(cause)}`, { chain, cause });
  }
  return {
    check: "chain id",
    subject: chain,
    ...(actual === expected ? { result: "ok", detail: `eth_chainId ${actual}` } : { result: "FAIL", detail: `eth_chainId ${actual}, expected ${expected}: the URL serves another chain` }),
  };
}

async function contractRows(client: PublicClient, contract: DoctorContract, head: number): Promise<DoctorRow[]> {
  const code = await guarded("code", contract.name, async () => {
    const bytes = byteLength(await client.getCode({ address: contract.address, blockNumber: BigInt(head) }));
    return bytes > 0
      ? { result: "ok", detail: `${bytes} bytes at ${contract.address} (head ${head})` }
      : { result: "FAIL", detail: `no code at ${contract.address} at the head ${head}: not a contract on this chain` };
  });
  const deployment = await guarded("deployment block", contract.name, async () => {
    const found = await resolveDeployment(client, contract, head, code.result === "ok");
    if ("failure" in found) return { result: "FAIL", detail: found.failure };
    const verdict = judgeStartBlock(contract.startBlock, found.block);
    return { result: verdict.result, detail: `deployed at block ${found.block} (${found.how}); ${verdict.detail}${verdict.result === "FAIL" ? ` [start block from: ${contract.source}]` : ""}` };
  });
  return [code, deployment];
}

type Deployment = { block: number; how: string } | { failure: string };

async function resolveDeployment(client: PublicClient, contract: DoctorContract, head: number, codeAtHead: boolean): Promise<Deployment> {
  const hasCode = async (block: number) => byteLength(await client.getCode({ address: contract.address, blockNumber: BigInt(block) })) > 0;
  if (contract.creationTx === null) {
    if (!codeAtHead) return { failure: "no creation tx configured and no code at the head: nothing to search for" };
    const block = await bisectFirstBlock(0, head, hasCode);
    return { block, how: "first block with code, by bisection over eth_getCode" };
  }
  const tx = contract.creationTx;
  const receipt = await client.getTransactionReceipt({ hash: tx }).catch((error: unknown) => {
    if (error instanceof BaseError && error.name === "TransactionReceiptNotFoundError") return null;
    throw error;
  });
  if (!receipt) return { failure: `no receipt for creation tx ${tx} on this chain` };
  const block = Number(receipt.blockNumber);
  // Nodes fill contractAddress in even when the creation reverted: it created nothing then.
  if (receipt.status !== "success") return { failure: `creation tx ${short(tx)} (block ${block}) reverted` };
  if (receipt.contractAddress && isAddressEqual(receipt.contractAddress, contract.address)) return { block, how: `receipt of ${short(tx)}` };
  // A factory or CREATE2 deployment: the receipt names no created contract (or the factory's),
  // so the tx counts when the address gets its code in exactly that block.
  const before = block > 0 && (await hasCode(block - 1));
  const after = await hasCode(block);
  if (!before && after) return { block, how: `code appears in the block of ${short(tx)} (factory deployment)` };
  const created = receipt.contractAddress ? `it created ${getAddress(receipt.contractAddress)}` : "it created no contract directly";
  return { failure: `creation tx ${short(tx)} (block ${block}) did not deploy ${contract.address}: ${created}, and the address ${before ? "already had code before that block" : "has no code in that block"}` };
}

/** The first block in [lo, hi] where `holds` is true, given that it is true at `hi` and stays true once true. */
export async function bisectFirstBlock(lo: number, hi: number, holds: (block: number) => Promise<boolean>): Promise<number> {
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (await holds(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** A start block after the deployment silently drops the first events; before it only costs scanning. */
export function judgeStartBlock(startBlock: number, deploymentBlock: number): Verdict {
  const gap = deploymentBlock - startBlock;
  if (gap > 0) return { result: "ok", detail: `start block ${startBlock} starts ${gap} blocks before the deployment` };
  if (gap === 0) return { result: "ok", detail: `start block ${startBlock} is the deployment block` };
  return { result: "FAIL", detail: `start block ${startBlock} would miss the first ${-gap} blocks of history` };
}

export type FeedObservation = {
  description: { ok: true; value: string } | { ok: false; error: string };
  decimals: { ok: true; value: number } | { ok: false; error: string };
  round: { ok: true; answer: bigint; updatedAt: number } | { ok: false; error: string };
};

async function feedRow(client: PublicClient, feed: DoctorFeed, head: number, headTimestamp: number): Promise<DoctorRow> {
  return guarded("feed", feed.name, async () => {
    const read = (functionName: "description" | "decimals" | "latestRoundData") =>
      client.readContract({ address: feed.address, abi: FEED_ABI, functionName, blockNumber: BigInt(head) });
    const [description, decimals, round] = await Promise.allSettled([read("description"), read("decimals"), read("latestRoundData")]);
    const observed: FeedObservation = {
      description: settled(description, (v) => String(v)),
      decimals: settled(decimals, (v) => Number(v)),
      round: round.status === "fulfilled"
        ? { ok: true, answer: (round.value as readonly bigint[])[1]!, updatedAt: Number((round.value as readonly bigint[])[3]!) }
        : { ok: false, error: rethrowUnreachable(round.reason) },
    };
    return judgeFeed(feed, observed, headTimestamp);
  });
}

function settled<T>(outcome: PromiseSettledResult<unknown>, map: (value: unknown) => T): { ok: true; value: T } | { ok: false; error: string } {
  return outcome.status === "fulfilled" ? { ok: true, value: map(outcome.value) } : { ok: false, error: rethrowUnreachable(outcome.reason) };
}

/** Everything wrong with a feed at once, so one run shows every fix; staleness alone only warns. */
export function judgeFeed(feed: DoctorFeed, observed: FeedObservation, headTimestamp: number): Verdict {
  const problems: string[] = [];
  const facts: string[] = [];
  const { description, decimals, round } = observed;
  if (!description.ok) problems.push(`description() failed: ${description.error}`);
  else if (typeof feed.expectDescription === "string" ? description.value !== feed.expectDescription : !feed.expectDescription.test(description.value)) {
    problems.push(`description() is ${JSON.stringify(description.value)}, expected ${typeof feed.expectDescription === "string" ? JSON.stringify(feed.expectDescription) : feed.expectDescription}`);
  } else facts.push(JSON.stringify(description.value));
  if (!decimals.ok) problems.push(`decimals() failed: ${decimals.error}`);
  else if (decimals.value !== feed.decimals) problems.push(`decimals() is ${decimals.value}, expected ${feed.decimals}`);
  else facts.push(`${decimals.value} decimals`);
  let stale: string | null = null;
  if (!round.ok) problems.push(`latestRoundData() failed: ${round.error}`);
  else if (round.answer <= 0n) problems.push(`latestRoundData() answer is ${round.answer}, not positive`);
  else {
    const age = Math.max(0, headTimestamp - round.updatedAt);
    const shown = decimals.ok ? formatUnits(round.answer, decimals.value) : String(round.answer);
    facts.push(`answer ${shown}, updated ${age} s before the head`);
    if (feed.maxAgeSeconds !== undefined && age > feed.maxAgeSeconds) stale = `stale: updated ${age} s before the head, more than ${feed.maxAgeSeconds} s`;
  }
  if (problems.length > 0) return { result: "FAIL", detail: `${feed.address}: ${problems.join("; ")} [from: ${feed.source}]` };
  if (stale) return { result: "warn", detail: `${facts.join(", ")}; ${stale}` };
  return { result: "ok", detail: facts.join(", ") };
}

async function archiveRow(client: PublicClient, contracts: DoctorContract[], head: number): Promise<DoctorRow> {
  const earliest = [...contracts].sort((a, b) => a.startBlock - b.startBlock)[0];
  if (!earliest) return { check: "archive state", subject: "-", result: "warn", detail: "no contracts configured: nothing to probe" };
  const block = Math.min(earliest.startBlock, head);
  const subject = `block ${block}`;
  try {
    const { data } = await client.call({ to: earliest.address, data: TOTAL_SUPPLY, blockNumber: BigInt(block) });
    return { check: "archive state", subject, result: "ok", detail: `eth_call totalSupply() on ${earliest.name} at its start block answered ${data ?? "0x"}` };
  } catch (error) {
    const kind = classifyRpcError(error);
    if (kind === "archive") return { check: "archive state", subject, result: "FAIL", detail: `an archive node is required: state at block ${block} is not served (${oneLine(error)})` };
    if (kind === "unreachable") throw unreachable(error, "archive state");
    // A revert still ran the call against the state at that block: archive access works.
    if (isRevert(error)) return { check: "archive state", subject, result: "ok", detail: `eth_call totalSupply() on ${earliest.name} at its start block executed (reverted, which still needs the state)` };
    return { check: "archive state", subject, result: "FAIL", detail: oneLine(error) };
  }
}

export type LogRangeProbe = {
  /** Widest span (in blocks) the provider answered, or null when it refused even the narrowest. */
  accepted: number | null;
  /** Blocks in the chain (head + 1): no probe can span more. */
  chainLength: number;
  /** Refused spans, widest first, with the provider's reason. */
  rejected: { span: number; reason: string }[];
};

/** The spans to probe below a head, widest first, each at most the chain's length and probed once. */
export function logRangeSpans(configured: number | null, chainLength: number): number[] {
  const spans = [...LOG_RANGE_PROBES, ...(configured ? [configured] : [])].map((s) => Math.min(s, chainLength));
  return [...new Set(spans)].sort((a, b) => b - a);
}

async function logRangeRow(client: PublicClient, first: DoctorContract | undefined, configured: number | null, head: number, recommended: DoctorReport["recommended"]): Promise<DoctorRow> {
  if (!first) return { check: "eth_getLogs range", subject: "-", result: "warn", detail: "no contracts configured: nothing to probe" };
  const probe: LogRangeProbe = { accepted: null, chainLength: head + 1, rejected: [] };
  let lastError: unknown = null;
  for (const span of logRangeSpans(configured, head + 1)) {
    try {
      await client.getLogs({ address: first.address, fromBlock: BigInt(head - span + 1), toBlock: BigInt(head) });
      probe.accepted = span;
      break;
    } catch (error) {
      // Any refusal counts, a timeout included: the indexer's request would time out the same.
      probe.rejected.push({ span, reason: oneLine(error) });
      lastError = error;
    }
  }
  if (probe.accepted === null && classifyRpcError(lastError) === "unreachable") throw unreachable(lastError, "eth_getLogs range");
  recommended.ethGetLogsBlockRange = probe.accepted;
  return { check: "eth_getLogs range", subject: first.name, ...judgeLogRange(configured, probe) };
}

export function judgeLogRange(configured: number | null, probe: LogRangeProbe): Verdict {
  const { accepted, chainLength, rejected } = probe;
  const firstRefusal = rejected[0] ? ` (${rejected[0].span} blocks: ${rejected[0].reason})` : "";
  if (accepted === null) return { result: "FAIL", detail: `eth_getLogs refused every range down to ${rejected.at(-1)?.span ?? 0} blocks${firstRefusal}` };
  const largest = `largest accepted range ${accepted} blocks${rejected.length ? `, refused${firstRefusal}` : ""}`;
  if (configured === null) return { result: "ok", detail: `${largest}; Ponder starts at 500 blocks and grows slowly: set KUSD_ETH_GET_LOGS_BLOCK_RANGE=${accepted}` };
  if (configured <= accepted) return { result: "ok", detail: `configured ${configured} ≤ ${largest}` };
  // Only a devnet is shorter than the configured range: it cannot be probed there.
  if (accepted === chainLength) return { result: "warn", detail: `configured ${configured}, but the chain has only ${chainLength} blocks to probe (all accepted)` };
  return { result: "FAIL", detail: `configured ${configured} > ${largest}` };
}

/**
 * "archive": the node answered but has pruned the state asked for. "unreachable": the request
 * did not get an answer (connection, timeout, auth, rate limit). "other": any other refusal.
 */
export function classifyRpcError(error: unknown): "archive" | "unreachable" | "other" {
  if (ARCHIVE_ERROR.test(errorText(error))) return "archive";
  for (const e of causes(error)) {
    if (e instanceof TimeoutError) return "unreachable";
    if (e instanceof HttpRequestError && (e.status === undefined || UNREACHABLE_STATUS.has(e.status))) return "unreachable";
  }
  return "other";
}

/** How geth, reth, erigon, nethermind and hosted providers say that historical state is gone. */
const ARCHIVE_ERROR =
  /missing trie node|header not found|historical state|state (?:is )?(?:not available|unavailable|pruned)|is pruned|no state available|state for block .* not available|archive (?:state|data|node)|does not have access to archive/i;
/** No answer worth reading: auth refused, method or URL not found, rate limited, gateway down. */
const UNREACHABLE_STATUS = new Set([401, 403, 404, 407, 429, 502, 503, 504]);

/** The error and its causes, outermost first (bounded: a cause chain may loop). */
function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let e: unknown = error; e && chain.length < 10; e = (e as { cause?: unknown }).cause) chain.push(e);
  return chain;
}

function errorText(error: unknown): string {
  const parts: string[] = [];
  for (const e of causes(error)) {
    const { message, details, shortMessage } = e as { message?: unknown; details?: unknown; shortMessage?: unknown };
    for (const part of [shortMessage, details, message]) if (typeof part === "string") parts.push(part);
  }
  return parts.join("\n");
}

function isRevert(error: unknown): boolean {
  return error instanceof BaseError && /revert/i.test(errorText(error));
}

/** An error as one short line: viem's messages carry the URL (often with an API key) and the request body. */
export function oneLine(error: unknown): string {
  let text: string;
  const reverted = causes(error).find((e): e is ContractFunctionRevertedError => e instanceof ContractFunctionRevertedError);
  if (reverted) text = `reverted${reverted.reason ? `: ${reverted.reason}` : reverted.signature ? ` with custom error ${reverted.signature}` : ""}`;
  else if (error instanceof BaseError) {
    const headline = error.shortMessage.split("\n")[0]!;
    const details = (error.walk() as BaseError).details || error.details;
    text = details && !headline.includes(details) ? `${headline} (${details})` : headline;
  } else text = error instanceof Error ? error.message : String(error);
  text = text.replace(/\s+/g, " ").trim();
  return text.length > 240 ? `${text.slice(0, 237)}...` : text;
}

function unreachable(cause: unknown, during: string): RpcUnreachableError {
  return new RpcUnreachableError(`the base RPC stopped answering during the ${during} check: ${oneLine(cause)}`, { chain: "base", cause });
}

function rethrowUnreachable(error: unknown): string {
  if (classifyRpcError(error) === "unreachable") throw error;
  return oneLine(error);
}

async function guardedBase<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw unreachable(error, "head block");
  }
}

/** Runs one check; an answer it did not expect is a FAIL row, no answer at all ends the run. */
async function guarded(check: string, subject: string, run: () => Promise<Verdict>): Promise<DoctorRow> {
  try {
    return { check, subject, ...(await run()) };
  } catch (error) {
    const kind = classifyRpcError(error);
    if (kind === "unreachable") throw unreachable(error, check);
    return { check, subject, result: "FAIL", detail: kind === "archive" ? `an archive node is required: ${oneLine(error)}` : oneLine(error) };
  }
}

const byteLength = (code: Hex | undefined) => (code && code !== "0x" ? (code.length - 2) / 2 : 0);
const short = (hash: Hex) => `${hash.slice(0, 10)}…`;

export function renderDoctorTable(report: DoctorReport): string {
  const header: DoctorRow = { check: "check", subject: "subject", result: "ok", detail: "detail" };
  const cells = [header, ...report.rows].map((r, i) => [r.check, r.subject, i === 0 ? "result" : r.result, r.detail] as const);
  const width = [0, 1, 2].map((col) => Math.max(...cells.map((c) => c[col]!.length)));
  const lines = cells.map((c) => [0, 1, 2].map((col) => c[col]!.padEnd(width[col]!)).join("  ") + `  ${c[3]}`);
  const count = (result: DoctorResult) => report.rows.filter((r) => r.result === result).length;
  const summary = `${report.ok ? "READY" : "NOT READY"}: ${count("ok")} ok, ${count("FAIL")} failed, ${count("warn")} warnings; ${report.requests} RPC requests`;
  return `${lines.map((l) => l.trimEnd()).join("\n")}\n${summary}\n`;
}
