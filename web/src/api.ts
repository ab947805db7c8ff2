/**
 * The page's reads: the same public routes any client uses, on the origin that served the page.
 * A failed read is an error the page shows, never a figure it makes up.
 */

import type { ApyReport, HedgeLedger, HistorySeries, PorReport, PsmStatus, RiskStatus } from "@kusd/core";

export type { ApyReport, HedgeLedger, HistorySeries, PorReport, PsmStatus, RiskStatus };

export class ReadError extends Error {
  constructor(
    readonly path: string,
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function getText(path: string): Promise<string> {
  const res = await fetch(path, { headers: { accept: "application/json" } });
  const text = await res.text();
  if (!res.ok) {
    let message = `HTTP ${res.status}`;
    try {
      message = (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? message;
    } catch {
      // not JSON: keep the status
    }
    throw new ReadError(path, res.status, `${path}: ${message}`);
  }
  return text;
}

const getJson = async <T>(path: string): Promise<T> => JSON.parse(await getText(path)) as T;
const at = (block: number | null) => (block === null ? "" : `block=${block}`);

export const readPor = (block: number | null) => getJson<PorReport>(`/api/por${block === null ? "" : `?${at(block)}`}`);

/** Daily points up to the block (the chart): outstanding kUSD against the PSMs' USDC. */
export const readHistory = (block: number | null) =>
  getJson<HistorySeries>(`/api/history?interval=DAY${block === null ? "" : `&toBlock=${block}`}`);

export const readPsmStatus = (block: number) => getJson<PsmStatus>(`/api/psm-status?block=${block}`);
export const readRiskStatus = (block: number) => getJson<RiskStatus>(`/api/risk-status?block=${block}`);

/** The latest signed statement as published text: it is verified from these bytes. */
export const readStatementText = () => getText("/api/por/signed");
export const readBindingText = () =>
  getText("/api/por/signer-registry").catch((e: unknown) =>
    e instanceof ReadError && e.status === 404 ? null : Promise.reject(e),
  );

export type RegistryDocument = { registry: { operator: string; registry_version: number; as_of: string } };
export const readRegistry = () => getJson<RegistryDocument>("/api/por/accounts");

export type Violation = {
  id: string;
  tokenSymbol: string;
  amount: number;
  from: string;
  to: string;
  txHash: string;
  blockNumber: number;
  timestamp: string;
  registryVersion: number;
};
export type ViolationPage = {
  indexedHead: { blockNumber: number; timestamp: string };
  violations: Violation[];
  next: string | null;
};

/** Every violation up to the block, newest first (the listing pages oldest first; at most 10 pages are followed). */
export async function readViolations(toBlock: number | null): Promise<Violation[]> {
  const all: Violation[] = [];
  let after: string | null = null;
  for (let page = 0; page < 10; page++) {
    const q = `limit=1000&fromBlock=0${toBlock === null ? "" : `&toBlock=${toBlock}`}${after ? `&after=${after}` : ""}`;
    const p: ViolationPage = await getJson<ViolationPage>(`/api/por/accounts/violations?${q}`);
    all.push(...p.violations);
    after = p.next;
    if (!after) break;
  }
  return all.reverse();
}

/** A read made once for the page, whoever asks first (again only after a failed read). */
function once<T>(read: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | null = null;
  return () =>
    (pending ??= read().catch((e: unknown) => {
      pending = null;
      throw e;
    }));
}

/** The network document the service reads the chain with: the addresses a re-derivation reads. */
export const readNetworkDocument = once(() => getText("/api/network"));

/** /api/apy and /api/hedge-ledger as published text. */
export type YieldTexts = { apy: string; ledger: string };

/**
 * The yield report and the hedge ledger, read once for the page: the yield section shows them and
 * the figure check re-derives these very documents, whichever asks first.
 */
export const readYieldTexts = once(async (): Promise<YieldTexts> => {
  const [apy, ledger] = await Promise.all([getText("/api/apy"), getText("/api/hedge-ledger")]);
  return { apy, ledger };
});
