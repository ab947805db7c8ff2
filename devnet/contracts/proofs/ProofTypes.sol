// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @notice Types and interfaces shared by the devnet's stand-ins for Base's L1 proof contracts
/// (base/contracts src/L1/proofs, as deployed for game type 621). The numbering of GameStatus and
/// the field order of Proposal are Base's: a verifier decodes the same words on both chains.

/// @notice The state of a dispute game.
enum GameStatus {
    IN_PROGRESS,
    CHALLENGER_WINS,
    DEFENDER_WINS
}

/// @notice An output root and the L2 block number it was computed at.
struct Proposal {
    bytes32 root;
    uint256 l2SequenceNumber;
}

interface IDisputeGame {
    function createdAt() external view returns (uint64);
    function resolvedAt() external view returns (uint64);
    function status() external view returns (GameStatus);
    function rootClaim() external pure returns (bytes32);
    function l2SequenceNumber() external pure returns (uint256);
    function extraData() external view returns (bytes memory);
    function gameData() external view returns (uint32 gameType, bytes32 rootClaim, bytes memory extraData);
    function wasRespectedGameTypeWhenCreated() external view returns (bool);
    function anchorStateRegistry() external view returns (address);
    function initialize() external payable;
    function initializeWithInitData(bytes calldata initData) external payable;
}

interface IGameRegistry {
    function games(uint32 gameType, bytes32 rootClaim, bytes calldata extraData)
        external
        view
        returns (address proxy, uint64 timestamp);
}

interface IAnchorStateRegistry {
    function disputeGameFactory() external view returns (address);
    function respectedGameType() external view returns (uint32);
    function paused() external view returns (bool);
    function getStartingAnchorRoot() external view returns (Proposal memory);
    function isGameRegistered(address game) external view returns (bool);
    function isGameRespected(address game) external view returns (bool);
    function isGameBlacklisted(address game) external view returns (bool);
    function isGameRetired(address game) external view returns (bool);
    function isGameFinalized(address game) external view returns (bool);
    function setAnchorState(address game) external;
}

interface ISystemConfig {
    function guardian() external view returns (address);
    function paused() external view returns (bool);
}

/// @notice What AggregateVerifier asks of a proof verifier (Base's IVerifier).
interface IProofVerifier {
    function verify(bytes calldata proofBytes, bytes32 imageId, bytes32 journal) external view returns (bool);
}
