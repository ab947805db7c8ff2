/**
 * The functions of Base's proof system a reader calls on Ethereum, as Base's contracts expose them
 * (base/contracts f3a33c85: DisputeGameFactory, AnchorStateRegistry, AggregateVerifier; recorded
 * and checked against the devnet's in devnet/proofs/base-interface.json). Every answer is executed
 * over state proven against the trusted L1 header, never taken from the RPC.
 */
import { parseAbi } from "viem";

export const disputeGameFactoryAbi = parseAbi([
  "function gameCount() view returns (uint256)",
  "function gameAtIndex(uint256 index) view returns (uint32 gameType, uint64 timestamp, address proxy)",
]);

export const anchorStateRegistryAbi = parseAbi([
  "function isGameRegistered(address game) view returns (bool)",
  "function isGameRespected(address game) view returns (bool)",
  "function isGameBlacklisted(address game) view returns (bool)",
  "function isGameRetired(address game) view returns (bool)",
  "function isGameProper(address game) view returns (bool)",
  "function isGameFinalized(address game) view returns (bool)",
  "function isGameClaimValid(address game) view returns (bool)",
  "function disputeGameFinalityDelaySeconds() view returns (uint256)",
]);

export const aggregateVerifierAbi = parseAbi([
  "function gameType() view returns (uint32)",
  "function rootClaim() pure returns (bytes32)",
  "function l2SequenceNumber() pure returns (uint256)",
  "function startingBlockNumber() view returns (uint256)",
  "function parentAddress() pure returns (address)",
  "function intermediateOutputRoots() view returns (bytes)",
  "function BLOCK_INTERVAL() view returns (uint256)",
  "function INTERMEDIATE_BLOCK_INTERVAL() view returns (uint256)",
  "function status() view returns (uint8)",
  "function createdAt() view returns (uint64)",
  "function resolvedAt() view returns (uint64)",
  "function expectedResolution() view returns (uint64)",
  "function proofCount() view returns (uint8)",
  "function counteredByIntermediateRootIndexPlusOne() view returns (uint256)",
  "function anchorStateRegistry() view returns (address)",
]);
