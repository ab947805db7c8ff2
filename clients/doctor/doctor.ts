/**
 * `kusd-doctor`: what a multi-hour Base backfill would otherwise find out hours in, asked of the
 * operator's RPC provider up front. This file runs the checks in their order and counts the
 * requests; the checks are in checks.ts, their judgements in verdicts.ts, the RPC error
 * classification in rpc-errors.ts, the table in render.ts.
 *
 * A check that gets a wrong answer is a FAIL row; an RPC that stops answering is not a check
 * result at all (RpcUnreachableError, exit 2 in the CLI), so "your provider is down" is never
 * reported as "your configuration is wrong".
 */
import { createPublicClient, custom, type PublicClient } from "viem";
import { anchoringRows, archiveRow, chainIdRow, contractRows, feedRow, guardedBase, logRangeRow } from "./checks.js";
import type { DoctorInput, DoctorReport, DoctorRow } from "./types.js";

export type { DoctorContract, DoctorFeed, DoctorInput, DoctorReport, DoctorResult, DoctorRow } from "./types.js";

export async function runDoctor(
  input: DoctorInput,
  clients: { base: PublicClient; ethereum: PublicClient | null },
): Promise<DoctorReport> {
  const counter = { requests: 0 };
  const base = countingClient(clients.base, counter);
  const ethereum = clients.ethereum && countingClient(clients.ethereum, counter);
  const rows: DoctorRow[] = [];
  const recommended: DoctorReport["recommended"] = { ethGetLogsBlockRange: null };
  const done = (): DoctorReport => ({
    ok: rows.every((r) => r.result !== "FAIL"),
    rows,
    requests: counter.requests,
    recommended,
  });

  const baseChain = await chainIdRow(base, "base", input.chainIds.base);
  rows.push(baseChain);
  rows.push(
    ethereum
      ? await chainIdRow(ethereum, "ethereum", input.chainIds.ethereum)
      : {
          check: "chain id",
          subject: "ethereum",
          result: "warn",
          detail: "not checked: no --ethereum-rpc-url, PONDER_RPC_URL_1 or KUSD_READ_RPC_URL_1",
        },
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
  rows.push(...(await anchoringRows(base, input.anchorSigner)));
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
