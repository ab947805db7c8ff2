/**
 * The operator store's checks on what it is given, shared by its repositories: a malformed row
 * is refused with OperatorStoreError instead of being stored, and hex keys are stored lower-case
 * so checksum casing never makes a second row for the same thing.
 */
import { OperatorStoreError } from "./operation.js";
import type { NewStatement, PaymentKey } from "./records.js";

export const ATTESTATION_HASH = /^0x[0-9a-fA-F]{64}$/;
const HEX = /^0x[0-9a-fA-F]+$/;
export const MAX_INT8 = 2n ** 63n - 1n;
const MAX_INT4 = 2 ** 31 - 1;

export function checkStatement(row: NewStatement) {
  const bad = (message: string) => new OperatorStoreError(message, { attestationHash: row?.attestationHash });
  if (typeof row.attestationHash !== "string" || !ATTESTATION_HASH.test(row.attestationHash))
    throw bad("attestationHash must be 0x + 64 hex");
  if (typeof row.signer !== "string" || row.signer === "") throw bad("signer must be a non-empty string");
  checkTimestamp(row.timestamp, "timestamp");
  if (typeof row.blockNumber !== "bigint" || row.blockNumber < 0n || row.blockNumber > MAX_INT8)
    throw bad("blockNumber must be a non-negative int8 bigint");
  if (!Number.isInteger(row.chainId) || row.chainId <= 0 || row.chainId > MAX_INT4)
    throw bad("chainId must be a positive int4");
  if (typeof row.status !== "string" || row.status === "") throw bad("status must be a non-empty string");
  if (typeof row.artifact !== "string" || row.artifact === "") throw bad("artifact must be a non-empty string");
  return {
    attestationHash: row.attestationHash.toLowerCase(),
    signer: row.signer,
    timestamp: row.timestamp,
    blockNumber: row.blockNumber,
    chainId: row.chainId,
    status: row.status,
    artifact: row.artifact,
  };
}

export function checkTimestamp(value: number, name: string): number {
  if (!Number.isSafeInteger(value) || value < 0)
    throw new OperatorStoreError(`${name} must be a non-negative integer (unix seconds)`, { [name]: value });
  return value;
}

export function checkKey(key: PaymentKey): PaymentKey {
  for (const field of ["network", "payer", "nonce"] as const) {
    if (typeof key?.[field] !== "string" || key[field] === "")
      throw new OperatorStoreError(`payment ${field} must be a non-empty string`, { key });
  }
  // EVM addresses and EIP-3009 nonces are hex, and checksum casing must not make a second key
  // for the same authorization (that would be a replay). Non-hex values (e.g. base58 Solana
  // keys) are case-sensitive and kept as given.
  return { network: key.network, payer: normaliseHex(key.payer), nonce: normaliseHex(key.nonce) };
}

export function normaliseHex(value: string): string {
  return HEX.test(value) ? value.toLowerCase() : value;
}
