/**
 * The doctor's checks, each asked of the provider: right chain? code where the config says? the
 * deployment block against the start block? the feeds we mean? historical state served (archive)?
 * how wide an eth_getLogs range? Each returns its row; the judgement itself is in verdicts.ts.
 *
 * A check that gets a wrong answer is a FAIL row; an RPC that stops answering throws
 * RpcUnreachableError (rpc-errors.ts) instead, so "your provider is down" is never reported as
 * "your configuration is wrong".
 */

import { EAS_ADDRESS } from "@kusd/core";
import { type Address, BaseError, getAddress, type Hex, isAddressEqual, type PublicClient, parseAbi } from "viem";
import {
  classifyRpcError,
  isRevert,
  oneLine,
  RpcUnreachableError,
  rethrowUnreachable,
  unreachable,
} from "./rpc-errors.js";
import type { DoctorContract, DoctorFeed, DoctorReport, DoctorRow, Verdict } from "./types.js";
import {
  bisectFirstBlock,
  type FeedObservation,
  judgeAnchorGas,
  judgeFeed,
  judgeLogRange,
  judgeStartBlock,
  type LogRangeProbe,
  logRangeSpans,
} from "./verdicts.js";

const FEED_ABI = parseAbi([
  "function description() view returns (string)",
  "function decimals() view returns (uint8)",
  "function latestRoundData() view returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)",
]);
/** totalSupply(): any answer, even a revert, proves the node opened the state at that block. */
const TOTAL_SUPPLY = "0x18160ddd";

export async function chainIdRow(
  client: PublicClient,
  chain: "base" | "ethereum",
  expected: number,
): Promise<DoctorRow> {
  let actual: number;
  try {
    actual = await client.getChainId();
  } catch (cause) {
    throw new RpcUnreachableError(`the ${chain} RPC did not answer eth_chainId: ${oneLine(cause)}`, { chain, cause });
  }
  return {
    check: "chain id",
    subject: chain,
    ...(actual === expected
      ? { result: "ok", detail: `eth_chainId ${actual}` }
      : { result: "FAIL", detail: `eth_chainId ${actual}, expected ${expected}: the URL serves another chain` }),
  };
}

export async function contractRows(client: PublicClient, contract: DoctorContract, head: number): Promise<DoctorRow[]> {
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
    return {
      result: verdict.result,
      detail: `deployed at block ${found.block} (${found.how}); ${verdict.detail}${verdict.result === "FAIL" ? ` [start block from: ${contract.source}]` : ""}`,
    };
  });
  return [code, deployment];
}

type Deployment = { block: number; how: string } | { failure: string };

async function resolveDeployment(
  client: PublicClient,
  contract: DoctorContract,
  head: number,
  codeAtHead: boolean,
): Promise<Deployment> {
  const hasCode = async (block: number) =>
    byteLength(await client.getCode({ address: contract.address, blockNumber: BigInt(block) })) > 0;
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
  if (receipt.contractAddress && isAddressEqual(receipt.contractAddress, contract.address))
    return { block, how: `receipt of ${short(tx)}` };
  // A factory or CREATE2 deployment: the receipt names no created contract (or the factory's),
  // so the tx counts when the address gets its code in exactly that block.
  const before = block > 0 && (await hasCode(block - 1));
  const after = await hasCode(block);
  if (!before && after) return { block, how: `code appears in the block of ${short(tx)} (factory deployment)` };
  const created = receipt.contractAddress
    ? `it created ${getAddress(receipt.contractAddress)}`
    : "it created no contract directly";
  return {
    failure: `creation tx ${short(tx)} (block ${block}) did not deploy ${contract.address}: ${created}, and the address ${before ? "already had code before that block" : "has no code in that block"}`,
  };
}

export async function feedRow(
  client: PublicClient,
  feed: DoctorFeed,
  head: number,
  headTimestamp: number,
): Promise<DoctorRow> {
  return guarded("feed", feed.name, async () => {
    const read = (functionName: "description" | "decimals" | "latestRoundData") =>
      client.readContract({ address: feed.address, abi: FEED_ABI, functionName, blockNumber: BigInt(head) });
    const [description, decimals, round] = await Promise.allSettled([
      read("description"),
      read("decimals"),
      read("latestRoundData"),
    ]);
    const observed: FeedObservation = {
      description: settled(description, (v) => String(v)),
      decimals: settled(decimals, (v) => Number(v)),
      round:
        round.status === "fulfilled"
          ? {
              ok: true,
              answer: (round.value as readonly bigint[])[1]!,
              updatedAt: Number((round.value as readonly bigint[])[3]!),
            }
          : { ok: false, error: rethrowUnreachable(round.reason) },
    };
    return judgeFeed(feed, observed, headTimestamp);
  });
}

function settled<T>(
  outcome: PromiseSettledResult<unknown>,
  map: (value: unknown) => T,
): { ok: true; value: T } | { ok: false; error: string } {
  return outcome.status === "fulfilled"
    ? { ok: true, value: map(outcome.value) }
    : { ok: false, error: rethrowUnreachable(outcome.reason) };
}

export async function archiveRow(client: PublicClient, contracts: DoctorContract[], head: number): Promise<DoctorRow> {
  const earliest = [...contracts].sort((a, b) => a.startBlock - b.startBlock)[0];
  if (!earliest)
    return {
      check: "archive state",
      subject: "-",
      result: "warn",
      detail: "no contracts configured: nothing to probe",
    };
  const block = Math.min(earliest.startBlock, head);
  const subject = `block ${block}`;
  try {
    const { data } = await client.call({ to: earliest.address, data: TOTAL_SUPPLY, blockNumber: BigInt(block) });
    return {
      check: "archive state",
      subject,
      result: "ok",
      detail: `eth_call totalSupply() on ${earliest.name} at its start block answered ${data ?? "0x"}`,
    };
  } catch (error) {
    const kind = classifyRpcError(error);
    if (kind === "archive")
      return {
        check: "archive state",
        subject,
        result: "FAIL",
        detail: `an archive node is required: state at block ${block} is not served (${oneLine(error)})`,
      };
    if (kind === "unreachable") throw unreachable(error, "archive state");
    // A revert still ran the call against the state at that block: archive access works.
    if (isRevert(error))
      return {
        check: "archive state",
        subject,
        result: "ok",
        detail: `eth_call totalSupply() on ${earliest.name} at its start block executed (reverted, which still needs the state)`,
      };
    return { check: "archive state", subject, result: "FAIL", detail: oneLine(error) };
  }
}

export async function logRangeRow(
  client: PublicClient,
  first: DoctorContract | undefined,
  configured: number | null,
  head: number,
  recommended: DoctorReport["recommended"],
): Promise<DoctorRow> {
  if (!first)
    return {
      check: "eth_getLogs range",
      subject: "-",
      result: "warn",
      detail: "no contracts configured: nothing to probe",
    };
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
  if (probe.accepted === null && classifyRpcError(lastError) === "unreachable")
    throw unreachable(lastError, "eth_getLogs range");
  recommended.ethGetLogsBlockRange = probe.accepted;
  return { check: "eth_getLogs range", subject: first.name, ...judgeLogRange(configured, probe) };
}

/** The base RPC's answer to a request outside any check (the head block): no answer ends the run. */
export async function guardedBase<T>(run: () => Promise<T>): Promise<T> {
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
    return {
      check,
      subject,
      result: "FAIL",
      detail: kind === "archive" ? `an archive node is required: ${oneLine(error)}` : oneLine(error),
    };
  }
}

const byteLength = (code: Hex | undefined) => (code && code !== "0x" ? (code.length - 2) / 2 : 0);
const short = (hash: Hex) => `${hash.slice(0, 10)}…`;

/** Gas one anchor takes: 326,357 measured on the devnet (docs/running-on-base.md), rounded up. */
export const ANCHOR_GAS = 330_000n;

/** EAS at Base's predeploy, and the signing key's ETH for anchoring statements there (none: nothing is signed here). */
export async function anchoringRows(client: PublicClient, signer: Address | null): Promise<DoctorRow[]> {
  if (!signer) return [];
  const code = await guardedBase(() => client.getCode({ address: EAS_ADDRESS }));
  const rows: DoctorRow[] = [
    {
      check: "EAS predeploy",
      subject: EAS_ADDRESS,
      ...(code && code !== "0x"
        ? { result: "ok" as const, detail: "has code: statements can be anchored" }
        : { result: "FAIL" as const, detail: "no code: this chain has no EAS where Base has it" }),
    },
  ];
  if (!signer) {
    rows.push({
      check: "anchor gas",
      subject: "signing key",
      result: "warn",
      detail: "no signing key configured: nothing is signed or anchored",
    });
    return rows;
  }
  const [balance, gasPrice] = await guardedBase(() =>
    Promise.all([client.getBalance({ address: signer }), client.getGasPrice()]),
  );
  rows.push({ check: "anchor gas", subject: signer, ...judgeAnchorGas(balance, ANCHOR_GAS * gasPrice) });
  return rows;
}
