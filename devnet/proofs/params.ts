/**
 * The devnet's output-root proposals: Base's proof system (packages/core/src/network/dispute-games.ts)
 * at Base's addresses and game type, on a scale a test can wait for. Base posts a game every 600
 * blocks with a root every 30 (20 roots a game); the devnet posts one every 60 blocks with a root
 * every 3, a tenth of the blocks and the same 20 roots, so a game's extra data and its clone's code
 * have the length they have on Base. A game resolves a second for each day Base waits: 5 s after
 * its proof (5 days on Base), 1 s after a second proof (1 day); a resolved game is final at once on both.
 */
import { BASE_PROOF_SYSTEM } from "@kusd/core";
import { type Hex, keccak256, stringToHex } from "viem";
import { devnetKey } from "../keys.js";

export const DEVNET_PROOF_PARAMS = {
  gameType: BASE_PROOF_SYSTEM.gameType,
  blockInterval: 60,
  intermediateBlockInterval: 3,
  slowFinalizationDelaySeconds: 5,
  fastFinalizationDelaySeconds: 1,
  disputeGameFinalityDelaySeconds: BASE_PROOF_SYSTEM.disputeGameFinalityDelaySeconds,
  /** Base asks 0.05 ETH of a proposer (held by DelayedWETH); the devnet has no bonds. */
  initBond: 0n,
} as const;

/** The accounts of the proof system, each with a devnet key. */
export const PROOF_KEYS = {
  /** Creates the games (Base's proposer EOA) and is the one proposer the TEE verifier accepts. */
  proposer: devnetKey("ethereum:base-proposer"),
  /** Challenges games whose intermediate roots are not the Base devnet's. */
  challenger: devnetKey("ethereum:base-challenger"),
  /** Signs TEE "proofs": the devnet's stand-in for the Nitro enclave's key. */
  teeSigner: devnetKey("ethereum:base-tee-prover"),
  /** Signs ZK "proofs": the devnet's stand-in for an SP1 proof. */
  zkSigner: devnetKey("ethereum:base-zk-prover"),
  /** May blacklist a game (AnchorStateRegistry.blacklistDisputeGame), as Base's guardian may. */
  guardian: devnetKey("ethereum:base-guardian"),
  /** Owns the factory: sets the game implementation (Base's ProxyAdminOwner safe). */
  owner: devnetKey("ethereum:base-proxy-admin-owner"),
} as const;

const label = (s: string): Hex => keccak256(stringToHex(`kusd-devnet:${s}`));

/** The program hashes the games commit to: what Base pins as enclave image and SP1 verification keys. */
export const PROGRAM_HASHES = {
  teeImageHash: label("tee-image"),
  zkRangeHash: label("zk-range-program"),
  zkAggregateHash: label("zk-aggregate-program"),
  configHash: label("rollup-config"),
} as const;
