// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {GameStatus, IDisputeGame, IGameRegistry, ISystemConfig, Proposal} from "./ProofTypes.sol";

/// @title AnchorStateRegistry
/// @notice Which dispute games count: registered by the factory, of the respected game type, not
/// blacklisted by the guardian, not retired, resolved, and past the finality delay; and the anchor,
/// the newest output root that a game finalized in the defender's favour. The external interface
/// and the storage slots are those of Base's AnchorStateRegistry (3.7.0 behind the proxy at
/// 0x909f…4E72), so the same reads and storage proofs answer on both chains. The finality delay is
/// a constructor argument as on Base (0 s there: the game's own resolution delay carries the wait).
contract AnchorStateRegistry {
    uint256 internal immutable DISPUTE_GAME_FINALITY_DELAY_SECONDS;

    // Slot 0 as Base's proxy keeps it: the initializer's version and flag, then systemConfig.
    uint8 private _initialized;
    bool private _initializing;
    address public systemConfig;
    address public disputeGameFactory;
    address public anchorGame;
    Proposal internal startingAnchorRoot;
    mapping(address => bool) public disputeGameBlacklist;
    uint32 public respectedGameType;
    uint64 public retirementTimestamp;

    event Initialized(uint8 version);
    event AnchorUpdated(address indexed game);
    event RespectedGameTypeSet(uint32 gameType);
    event RetirementTimestampSet(uint256 timestamp);
    event DisputeGameBlacklisted(address indexed disputeGame);

    error AnchorStateRegistry_InvalidAnchorGame();
    error AnchorStateRegistry_Unauthorized();
    error AlreadyInitialized();

    /// @dev Base's registry is at initializer version 2 (ReinitializableBase(2)).
    uint8 internal constant INIT_VERSION = 2;

    constructor(uint256 disputeGameFinalityDelaySeconds_) {
        DISPUTE_GAME_FINALITY_DELAY_SECONDS = disputeGameFinalityDelaySeconds_;
    }

    function initialize(
        address systemConfig_,
        address disputeGameFactory_,
        Proposal memory startingAnchorRoot_,
        uint32 startingRespectedGameType
    ) external {
        if (_initialized >= INIT_VERSION) revert AlreadyInitialized();
        _initialized = INIT_VERSION;
        systemConfig = systemConfig_;
        disputeGameFactory = disputeGameFactory_;
        startingAnchorRoot = startingAnchorRoot_;
        respectedGameType = startingRespectedGameType;
        // Games created in this block or before are retired, as on Base's first initialization.
        if (retirementTimestamp == 0) retirementTimestamp = uint64(block.timestamp);
        emit Initialized(INIT_VERSION);
    }

    function initVersion() external pure returns (uint8) {
        return INIT_VERSION;
    }

    function version() external pure returns (string memory) {
        return "3.7.0+devnet";
    }

    function paused() public view returns (bool) {
        return ISystemConfig(systemConfig).paused();
    }

    function disputeGameFinalityDelaySeconds() external view returns (uint256) {
        return DISPUTE_GAME_FINALITY_DELAY_SECONDS;
    }

    function getStartingAnchorRoot() external view returns (Proposal memory) {
        return startingAnchorRoot;
    }

    function setRespectedGameType(uint32 gameType) external {
        _onlyGuardian();
        respectedGameType = gameType;
        emit RespectedGameTypeSet(gameType);
    }

    function updateRetirementTimestamp() external {
        _onlyGuardian();
        retirementTimestamp = uint64(block.timestamp);
        emit RetirementTimestampSet(block.timestamp);
    }

    function blacklistDisputeGame(address disputeGame) external {
        _onlyGuardian();
        disputeGameBlacklist[disputeGame] = true;
        emit DisputeGameBlacklisted(disputeGame);
    }

    /// @notice The anchor root; the game type is not used, anchors are no longer kept per type.
    function anchors(uint32) external view returns (bytes32, uint256) {
        return getAnchorRoot();
    }

    function getAnchorRoot() public view returns (bytes32, uint256) {
        if (anchorGame == address(0)) return (startingAnchorRoot.root, startingAnchorRoot.l2SequenceNumber);
        return (IDisputeGame(anchorGame).rootClaim(), IDisputeGame(anchorGame).l2SequenceNumber());
    }

    /// @notice Created by the factory this registry names, and pointing back at this registry.
    function isGameRegistered(address game) public view returns (bool) {
        (uint32 gameType, bytes32 rootClaim, bytes memory extraData) = IDisputeGame(game).gameData();
        (address registered,) = IGameRegistry(disputeGameFactory).games(gameType, rootClaim, extraData);
        return registered == game && IDisputeGame(game).anchorStateRegistry() == address(this);
    }

    function isGameRespected(address game) public view returns (bool) {
        return IDisputeGame(game).wasRespectedGameTypeWhenCreated();
    }

    function isGameBlacklisted(address game) public view returns (bool) {
        return disputeGameBlacklist[game];
    }

    function isGameRetired(address game) public view returns (bool) {
        return IDisputeGame(game).createdAt() <= retirementTimestamp;
    }

    function isGameResolved(address game) public view returns (bool) {
        GameStatus s = IDisputeGame(game).status();
        return IDisputeGame(game).resolvedAt() != 0 && (s == GameStatus.DEFENDER_WINS || s == GameStatus.CHALLENGER_WINS);
    }

    /// @notice Not invalidated: registered, not blacklisted, not retired, system not paused. Says
    /// nothing about whether the root claim is right (see isGameClaimValid).
    function isGameProper(address game) public view returns (bool) {
        return isGameRegistered(game) && !isGameBlacklisted(game) && !isGameRetired(game) && !paused();
    }

    /// @notice Resolved, and resolved more than the finality delay ago.
    function isGameFinalized(address game) public view returns (bool) {
        if (!isGameResolved(game)) return false;
        return block.timestamp - IDisputeGame(game).resolvedAt() > DISPUTE_GAME_FINALITY_DELAY_SECONDS;
    }

    function isGameClaimValid(address game) public view returns (bool) {
        return isGameProper(game) && isGameRespected(game) && isGameFinalized(game)
            && IDisputeGame(game).status() == GameStatus.DEFENDER_WINS;
    }

    /// @notice Moves the anchor to `game` when its claim is valid and newer than the anchor's.
    function setAnchorState(address game) external {
        if (!isGameClaimValid(game)) revert AnchorStateRegistry_InvalidAnchorGame();
        (, uint256 anchorL2BlockNumber) = getAnchorRoot();
        if (IDisputeGame(game).l2SequenceNumber() <= anchorL2BlockNumber) revert AnchorStateRegistry_InvalidAnchorGame();
        anchorGame = game;
        emit AnchorUpdated(game);
    }

    function _onlyGuardian() internal view {
        if (msg.sender != ISystemConfig(systemConfig).guardian()) revert AnchorStateRegistry_Unauthorized();
    }
}
