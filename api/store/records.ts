/** The rows the operator store takes and gives back, one pair per repository. */
import type { PaymentStatus } from "./tables.js";

export type NewStatement = {
  /** 0x + 64 hex; stored lower-case. */
  attestationHash: string;
  signer: string;
  /** The signed unix time (seconds). */
  timestamp: number;
  blockNumber: bigint;
  chainId: number;
  status: string;
  /** The published JSON document exactly as served. */
  artifact: string;
};

export type StoredStatement = NewStatement & { id: number; createdAt: Date };

export type PaymentKey = { network: string; payer: string; nonce: string };

export type PaymentAuthorization = PaymentKey & {
  status: PaymentStatus;
  resource: string;
  settlementTx: string | null;
  reservedBlock: bigint | null;
  delivered: boolean;
  createdAt: Date;
  updatedAt: Date;
};

export type NewVenueReading = {
  chainId: number;
  blockNumber: bigint;
  /** The block's hash, lower-case; null if it could not be read. */
  blockHash: string | null;
  /** The venue account read (stored lower-case). */
  account: string;
  venueUrl: string;
  /** The parsed answer, JSON; null when the read failed. */
  state: string | null;
  /** Why it failed (state null). */
  reason: string | null;
  readAtMs: number;
  statementHash: string | null;
};

export type StoredVenueReading = NewVenueReading & { id: number; createdAt: Date };
