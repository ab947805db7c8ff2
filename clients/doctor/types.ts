/**
 * What `kusd-doctor` is asked to check (the configuration under test) and what it answers: one
 * row per check, the verdict, the request count and what to configure.
 */
import type { Address, Hex } from "viem";

export type DoctorContract = {
  name: string;
  address: Address;
  startBlock: number;
  creationTx: Hex | null;
  source: string;
};
export type DoctorFeed = {
  name: string;
  address: Address;
  expectDescription: RegExp | string;
  decimals: number;
  source: string;
  maxAgeSeconds?: number;
};
export type DoctorInput = {
  chainIds: { base: number; ethereum: number };
  contracts: DoctorContract[];
  feeds: DoctorFeed[];
  /** The eth_getLogs block range the indexer is configured with, or null for Ponder's automatic detection. */
  ethGetLogsBlockRange: number | null;
  /** The key that signs (and anchors) statements from now on, or null when none is configured. */
  anchorSigner: Address | null;
};

export type DoctorResult = "ok" | "FAIL" | "warn";
export type DoctorRow = { check: string; subject: string; result: DoctorResult; detail: string };
/** `recommended`: what to configure from what the provider showed (KUSD_ETH_GET_LOGS_BLOCK_RANGE). */
export type DoctorReport = {
  ok: boolean;
  rows: DoctorRow[];
  requests: number;
  recommended: { ethGetLogsBlockRange: number | null };
};
/** A check's outcome before it is labelled with its check and subject. */
export type Verdict = { result: DoctorResult; detail: string };
