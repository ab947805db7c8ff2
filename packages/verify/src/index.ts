/**
 * kusd-verify: check a kUSD signed statement without trusting the service that published it.
 * The package's public entry for every runtime (the page runs it in the browser; node.ts adds the
 * command line and reading files): the signature and binding checks (packages/core/src/attestation), the
 * read plan the service itself reads the chain with, and (rederive/, proofs/) every signed figure
 * re-derived from the reader's own RPC and checked against one block hash.
 */
export { pinnedTrust, STATEMENT_MAX_AGE_SECONDS, type Trust, trustFromBinding, verifyTrusted } from "@kusd/core";
export { type AnchorOptions, checkAnchor } from "./anchor/check-anchor.js";
export type { ProofReport, ReadProof } from "./proofs/prove-reads.js";
export { STORAGE_LAYOUTS } from "./proofs/storage-layouts.js";
export { listedAccounts, snapshotAddresses } from "./read-plan/addresses.js";
export {
  MINTER_ROLE,
  PSM_KEYS,
  readChainSnapshot,
  readPsmSnapshots,
  type SnapshotAddresses,
} from "./read-plan/chain-snapshot.js";
export { hasCodeAt } from "./read-plan/code-presence.js";
export {
  abiFromCastSignature,
  BATCH_MAX_BYTES,
  batchTarget,
  ChainReadError,
  MULTICALL3,
  PinnedReader,
  type Read,
  type ReadOutcome,
  type ReadSpec,
  tolerantReads,
} from "./read-plan/pinned-reader.js";
export { type FigureRow, FigureRowSchema } from "./rederive/figure-rows.js";
export { networkOf } from "./rederive/network.js";
export { type Check, rederivationChecks } from "./rederive/rederive-checks.js";
export {
  type PinnedBlock,
  type Rederivation,
  RederivationError,
  type RederiveOptions,
  rederiveStatement,
} from "./rederive/rederive-statement.js";
