/**
 * What the proof check says of a re-derivation's reads: the block hash it rests on and who vouches
 * for it, the header that hashed to it, and each read proven (executed over state proven against
 * that header's state root, with the answer the RPC gave) or failed, naming why.
 */
import type { Address, Hex } from "viem";
import type { ProvenStateCounts } from "./proven-state.js";

export type ReadProof = {
  read: string;
  /** no-value: the RPC's call itself failed, so it answered nothing to prove (its figures are unknown). */
  status: "proven" | "failed" | "no-value";
  detail: string;
  account?: Address;
  slot?: Hex;
};

export type ProofReport = {
  /** The block hash every proof rests on, and who vouches for it. */
  anchor: { blockHash: Hex; source: string };
  header: { ok: boolean; detail: string; stateRoot: Hex | null };
  reads: ReadProof[];
  /** What was fetched and proved to execute the reads. */
  state?: ProvenStateCounts;
  /** The header hashed to the anchor and no read failed. */
  ok: boolean;
};
