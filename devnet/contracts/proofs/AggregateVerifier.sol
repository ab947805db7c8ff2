// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {GameStatus, IAnchorStateRegistry, IDisputeGame, IProofVerifier, Proposal} from "./ProofTypes.sol";

/// @title AggregateVerifier
/// @notice The devnet's dispute game of type 621, with the interface, clone arguments and storage
/// slots of Base's multi-proof game (base/contracts src/L1/proofs/AggregateVerifier.sol as deployed
/// on Ethereum since the Azul upgrade). A game claims the output root of L2 block
/// `l2SequenceNumber`, exactly BLOCK_INTERVAL blocks after its parent's, and carries the output root
/// of every INTERMEDIATE_BLOCK_INTERVAL-th block in between (the last one is the root claim). It is
/// created with one TEE proof and resolves DEFENDER_WINS once its expected resolution time has
/// passed (SLOW_FINALIZATION_DELAY after one proof, FAST_FINALIZATION_DELAY after a TEE and a ZK
/// proof); a ZK proof of a different intermediate root (`challenge`) makes it resolve
/// CHALLENGER_WINS, and so does a parent that lost, was blacklisted or was retired.
///
/// Where the devnet differs: the delays are constructor arguments (Base's are constants of 5 days
/// and 1 day), the proof verifiers accept a signature by one devnet key in place of a Nitro enclave
/// or an SP1 proof, and there is no bond (init bond 0, no DelayedWETH, no claimCredit, no nullify).
///
/// Immutable arguments, read from the clone's call data (the clone appends them, then their length
/// + 2 as 2 bytes): creator at 0x00, root claim 0x14, L1 parent block hash 0x34, then the extra data:
/// L2 block number 0x54, parent game 0x74, intermediate roots from 0x88, 32 bytes each.
contract AggregateVerifier {
    enum ProofType {
        TEE,
        ZK
    }

    struct Config {
        uint32 gameType;
        address anchorStateRegistry;
        address teeVerifier;
        address zkVerifier;
        bytes32 teeImageHash;
        bytes32 zkRangeHash;
        bytes32 zkAggregateHash;
        bytes32 configHash;
        uint256 l2ChainId;
        uint256 blockInterval;
        uint256 intermediateBlockInterval;
        uint64 slowFinalizationDelay;
        uint64 fastFinalizationDelay;
    }

    address public constant EIP2935_CONTRACT = 0x0000F90827F1C53a10cb7A02335B175320002935;
    uint256 public constant BLOCKHASH_WINDOW = 256;
    uint256 public constant EIP2935_WINDOW = 8191;
    uint256 public constant PROOF_THRESHOLD = 1;

    uint64 public immutable SLOW_FINALIZATION_DELAY;
    uint64 public immutable FAST_FINALIZATION_DELAY;
    address internal immutable ANCHOR_STATE_REGISTRY;
    address public immutable DISPUTE_GAME_FACTORY;
    address public immutable TEE_VERIFIER;
    bytes32 public immutable TEE_IMAGE_HASH;
    address public immutable ZK_VERIFIER;
    bytes32 public immutable ZK_RANGE_HASH;
    bytes32 public immutable ZK_AGGREGATE_HASH;
    bytes32 public immutable CONFIG_HASH;
    uint256 public immutable L2_CHAIN_ID;
    uint256 public immutable BLOCK_INTERVAL;
    uint256 public immutable INTERMEDIATE_BLOCK_INTERVAL;
    uint256 internal immutable INITIALIZE_CALLDATA_SIZE;
    uint32 internal immutable GAME_TYPE;

    // Storage in Base's slots: a verifier proves status and times from slot 0.
    uint64 public createdAt;
    uint64 public resolvedAt;
    GameStatus public status;
    bool internal initialized;
    bool public wasRespectedGameTypeWhenCreated;
    Proposal public startingOutputRoot;
    address public bondRecipient;
    bool public bondUnlocked;
    bool public bondClaimed;
    uint256 public bondAmount;
    uint256 public counteredByIntermediateRootIndexPlusOne;
    mapping(ProofType => address) internal proofTypeToProver;
    uint64 public expectedResolution;
    uint8 public proofCount;

    event Resolved(GameStatus status);
    event Challenged(address indexed challenger, uint256 intermediateRootIndex);
    event Proved(address indexed proposer, ProofType indexed proofType);

    error InvalidBlockInterval(uint256 blockInterval, uint256 intermediateBlockInterval);
    error UnexpectedBlockNumber(uint256 expectedBlockNumber, uint256 actualBlockNumber);
    error AlreadyInitialized();
    error BadExtraData();
    error GameOver();
    error GameNotOver();
    error GameNotInProgress();
    error ClaimAlreadyResolved();
    error GameNotResolved();
    error GameNotFinalized();
    error GamePaused();
    error InvalidGame();
    error InvalidParentGame();
    error ParentGameNotResolved();
    error MissingProof(ProofType proofType);
    error AlreadyProven(ProofType proofType);
    error InvalidProof();
    error InvalidProofType();
    error InvalidIntermediateRootIndex();
    error IntermediateRootSameAsProposed();
    error IntermediateRootMismatch(bytes32 intermediateRoot, bytes32 claim);
    error L1OriginTooOld(uint256 l1OriginNumber, uint256 currentBlock);
    error L1OriginInFuture(uint256 l1OriginNumber, uint256 currentBlock);
    error L1OriginHashMismatch(bytes32 claimed, bytes32 actual);
    error NotEnoughProofs();

    constructor(Config memory c) {
        if (
            c.blockInterval == 0 || c.intermediateBlockInterval == 0 || c.blockInterval % c.intermediateBlockInterval != 0
        ) revert InvalidBlockInterval(c.blockInterval, c.intermediateBlockInterval);
        GAME_TYPE = c.gameType;
        ANCHOR_STATE_REGISTRY = c.anchorStateRegistry;
        DISPUTE_GAME_FACTORY = IAnchorStateRegistry(c.anchorStateRegistry).disputeGameFactory();
        TEE_VERIFIER = c.teeVerifier;
        ZK_VERIFIER = c.zkVerifier;
        TEE_IMAGE_HASH = c.teeImageHash;
        ZK_RANGE_HASH = c.zkRangeHash;
        ZK_AGGREGATE_HASH = c.zkAggregateHash;
        CONFIG_HASH = c.configHash;
        L2_CHAIN_ID = c.l2ChainId;
        BLOCK_INTERVAL = c.blockInterval;
        INTERMEDIATE_BLOCK_INTERVAL = c.intermediateBlockInterval;
        SLOW_FINALIZATION_DELAY = c.slowFinalizationDelay;
        FAST_FINALIZATION_DELAY = c.fastFinalizationDelay;
        // Selector, the clone's arguments (0x88 + 32 per root) and its 2-byte length word.
        INITIALIZE_CALLDATA_SIZE = 0x8E + 0x20 * (c.blockInterval / c.intermediateBlockInterval);
    }

    /// @notice Starts the game from the factory: `proof` is the proof type (1 byte), the L1 origin
    /// block's hash (32) and number (32), then the proof the verifier of that type checks.
    function initializeWithInitData(bytes calldata proof) external payable {
        if (initialized) revert AlreadyInitialized();
        // Exactly the expected call data: extra bytes in the extra data would give the same game a
        // second UUID in the factory.
        uint256 expected = INITIALIZE_CALLDATA_SIZE + 0x40 + ((proof.length + 31) / 32) * 32;
        if (msg.data.length != expected) revert BadExtraData();
        uint256 last = intermediateOutputRootsCount() - 1;
        if (intermediateOutputRoot(last) != rootClaim()) {
            revert IntermediateRootMismatch(intermediateOutputRoot(last), rootClaim());
        }
        if (parentAddress() != ANCHOR_STATE_REGISTRY) {
            IDisputeGame parent = IDisputeGame(parentAddress());
            if (!_isValidGame(parentAddress())) revert InvalidParentGame();
            startingOutputRoot = Proposal({root: parent.rootClaim(), l2SequenceNumber: parent.l2SequenceNumber()});
        } else {
            startingOutputRoot = IAnchorStateRegistry(ANCHOR_STATE_REGISTRY).getStartingAnchorRoot();
        }
        if (l2SequenceNumber() != startingOutputRoot.l2SequenceNumber + BLOCK_INTERVAL) {
            revert UnexpectedBlockNumber(startingOutputRoot.l2SequenceNumber + BLOCK_INTERVAL, l2SequenceNumber());
        }
        initialized = true;
        createdAt = uint64(block.timestamp);
        wasRespectedGameTypeWhenCreated = IAnchorStateRegistry(ANCHOR_STATE_REGISTRY).respectedGameType() == GAME_TYPE;
        expectedResolution = type(uint64).max;

        ProofType proofType = ProofType(uint8(proof[0]));
        bytes32 l1OriginHash = bytes32(proof[1:33]);
        _verifyL1Origin(l1OriginHash, uint256(bytes32(proof[33:65])));
        _verifyProof(
            proof[65:],
            proofType,
            gameCreator(),
            l1OriginHash,
            startingOutputRoot.root,
            startingOutputRoot.l2SequenceNumber,
            rootClaim(),
            l2SequenceNumber(),
            intermediateOutputRoots()
        );
        _proved(proofType, gameCreator());
        bondRecipient = gameCreator();
        bondAmount = msg.value;
    }

    /// @notice A second proof of the same proposal (the other type), which shortens the wait.
    function verifyProposalProof(bytes calldata proofBytes) external {
        if (status != GameStatus.IN_PROGRESS) revert GameNotInProgress();
        if (gameOver()) revert GameOver();
        ProofType proofType = ProofType(uint8(proofBytes[0]));
        if (proofTypeToProver[proofType] != address(0)) revert AlreadyProven(proofType);
        _verifyProof(
            proofBytes[1:],
            proofType,
            msg.sender,
            l1Head(),
            startingOutputRoot.root,
            startingOutputRoot.l2SequenceNumber,
            rootClaim(),
            l2SequenceNumber(),
            intermediateOutputRoots()
        );
        _proved(proofType, msg.sender);
    }

    /// @notice Disputes a TEE-proven game with a ZK proof that intermediate root
    /// `intermediateRootIndex` is `intermediateRootToProve`, not the one the game carries.
    function challenge(bytes calldata proofBytes, uint256 intermediateRootIndex, bytes32 intermediateRootToProve)
        external
    {
        if (status != GameStatus.IN_PROGRESS) revert ClaimAlreadyResolved();
        if (!_isValidGame(address(this))) revert InvalidGame();
        if (_parentStatus() == GameStatus.CHALLENGER_WINS) revert InvalidParentGame();
        if (proofTypeToProver[ProofType.TEE] == address(0)) revert MissingProof(ProofType.TEE);
        if (proofTypeToProver[ProofType.ZK] != address(0)) revert AlreadyProven(ProofType.ZK);
        if (ProofType(uint8(proofBytes[0])) != ProofType.ZK) revert InvalidProofType();
        if (intermediateRootIndex >= intermediateOutputRootsCount()) revert InvalidIntermediateRootIndex();
        if (intermediateOutputRoot(intermediateRootIndex) == intermediateRootToProve) {
            revert IntermediateRootSameAsProposed();
        }
        // The proven range starts at the game's own previous root: the first one that differs is
        // the one challenged.
        bytes32 startingRoot = intermediateRootIndex == 0
            ? startingOutputRoot.root
            : intermediateOutputRoot(intermediateRootIndex - 1);
        uint256 startingBlock = startingOutputRoot.l2SequenceNumber + intermediateRootIndex * INTERMEDIATE_BLOCK_INTERVAL;
        _verifyProof(
            proofBytes[1:],
            ProofType.ZK,
            msg.sender,
            l1Head(),
            startingRoot,
            startingBlock,
            intermediateRootToProve,
            startingBlock + INTERMEDIATE_BLOCK_INTERVAL,
            abi.encodePacked(intermediateRootToProve)
        );
        proofTypeToProver[ProofType.ZK] = msg.sender;
        proofCount += 1;
        expectedResolution = uint64(block.timestamp) + SLOW_FINALIZATION_DELAY;
        counteredByIntermediateRootIndexPlusOne = intermediateRootIndex + 1;
        emit Challenged(msg.sender, intermediateRootIndex);
    }

    function resolve() external returns (GameStatus) {
        if (status != GameStatus.IN_PROGRESS) revert ClaimAlreadyResolved();
        GameStatus parentStatus = _parentStatus();
        if (parentStatus == GameStatus.IN_PROGRESS) revert ParentGameNotResolved();
        if (parentStatus == GameStatus.CHALLENGER_WINS) {
            status = GameStatus.CHALLENGER_WINS;
        } else {
            if (!gameOver()) revert GameNotOver();
            if (proofCount < PROOF_THRESHOLD) revert NotEnoughProofs();
            if (counteredByIntermediateRootIndexPlusOne > 0) {
                status = GameStatus.CHALLENGER_WINS;
                bondRecipient = proofTypeToProver[ProofType.ZK];
            } else {
                status = GameStatus.DEFENDER_WINS;
            }
        }
        resolvedAt = uint64(block.timestamp);
        emit Resolved(status);
        return status;
    }

    /// @notice Offers this resolved, finalized game to the registry as the new anchor.
    function closeGame() external {
        if (IAnchorStateRegistry(ANCHOR_STATE_REGISTRY).paused()) revert GamePaused();
        if (resolvedAt == 0) revert GameNotResolved();
        if (!IAnchorStateRegistry(ANCHOR_STATE_REGISTRY).isGameFinalized(address(this))) revert GameNotFinalized();
        // Not every finalized game can become the anchor (an older one, a lost one): that is no error.
        try IAnchorStateRegistry(ANCHOR_STATE_REGISTRY).setAnchorState(address(this)) {} catch {}
    }

    function gameOver() public view returns (bool) {
        return expectedResolution <= block.timestamp;
    }

    function startingBlockNumber() external view returns (uint256) {
        return startingOutputRoot.l2SequenceNumber;
    }

    function startingRootHash() external view returns (bytes32) {
        return startingOutputRoot.root;
    }

    function gameData() external view returns (uint32, bytes32, bytes memory) {
        return (GAME_TYPE, rootClaim(), extraData());
    }

    function gameType() external view returns (uint32) {
        return GAME_TYPE;
    }

    function anchorStateRegistry() external view returns (address) {
        return ANCHOR_STATE_REGISTRY;
    }

    function teeProver() external view returns (address) {
        return proofTypeToProver[ProofType.TEE];
    }

    function zkProver() external view returns (address) {
        return proofTypeToProver[ProofType.ZK];
    }

    /// @notice At least one: the root claim is the last intermediate root.
    function intermediateOutputRootsCount() public view returns (uint256) {
        return BLOCK_INTERVAL / INTERMEDIATE_BLOCK_INTERVAL;
    }

    function intermediateOutputRoots() public view returns (bytes memory) {
        return _argBytes(0x88, 0x20 * intermediateOutputRootsCount());
    }

    function intermediateOutputRoot(uint256 index) public view returns (bytes32) {
        if (index >= intermediateOutputRootsCount()) revert InvalidIntermediateRootIndex();
        return _argWord(0x88 + 0x20 * index);
    }

    /// @notice L2 block number (32 bytes), parent game (20), intermediate roots (32 each).
    function extraData() public view returns (bytes memory) {
        return _argBytes(0x54, 0x34 + 0x20 * intermediateOutputRootsCount());
    }

    function gameCreator() public pure returns (address) {
        return address(bytes20(_argWord(0x00)));
    }

    function rootClaim() public pure returns (bytes32) {
        return _argWord(0x14);
    }

    /// @notice The hash of the L1 block before the one the game was created in.
    function l1Head() public pure returns (bytes32) {
        return _argWord(0x34);
    }

    /// @notice The L2 block whose output root the game claims.
    function l2SequenceNumber() public pure returns (uint256) {
        return uint256(_argWord(0x54));
    }

    /// @notice The parent game, or the anchor state registry for a game built on the starting anchor.
    function parentAddress() public pure returns (address) {
        return address(bytes20(_argWord(0x74)));
    }

    function version() external pure returns (string memory) {
        return "0.1.0+devnet";
    }

    function _proved(ProofType proofType, address prover) internal {
        proofTypeToProver[proofType] = prover;
        proofCount += 1;
        uint64 delay = proofCount >= 2 ? FAST_FINALIZATION_DELAY : SLOW_FINALIZATION_DELAY;
        uint64 resolution = uint64(block.timestamp) + delay;
        if (resolution < expectedResolution) expectedResolution = resolution;
        emit Proved(prover, proofType);
    }

    /// @dev The parent's status, as a lost game when the parent is blacklisted or retired; the
    /// starting anchor counts as a won game.
    function _parentStatus() internal view returns (GameStatus) {
        address parent = parentAddress();
        if (parent == ANCHOR_STATE_REGISTRY) return GameStatus.DEFENDER_WINS;
        IAnchorStateRegistry registry = IAnchorStateRegistry(ANCHOR_STATE_REGISTRY);
        if (registry.isGameBlacklisted(parent) || registry.isGameRetired(parent)) return GameStatus.CHALLENGER_WINS;
        return IDisputeGame(parent).status();
    }

    function _isValidGame(address game) internal view returns (bool) {
        IAnchorStateRegistry registry = IAnchorStateRegistry(ANCHOR_STATE_REGISTRY);
        return registry.isGameRegistered(game) && registry.isGameRespected(game) && !registry.isGameBlacklisted(game)
            && !registry.isGameRetired(game) && IDisputeGame(game).status() != GameStatus.CHALLENGER_WINS;
    }

    /// @dev The proof names an L1 block the game can still see: by BLOCKHASH within 256 blocks, or
    /// through the EIP-2935 history contract within 8191.
    function _verifyL1Origin(bytes32 l1OriginHash, uint256 l1OriginNumber) internal view {
        if (l1OriginNumber >= block.number) revert L1OriginInFuture(l1OriginNumber, block.number);
        uint256 age = block.number - l1OriginNumber;
        bytes32 actual;
        if (age <= BLOCKHASH_WINDOW) {
            actual = blockhash(l1OriginNumber);
        } else if (age <= EIP2935_WINDOW) {
            (bool ok, bytes memory result) = EIP2935_CONTRACT.staticcall(abi.encode(l1OriginNumber));
            if (!ok || result.length != 32) revert L1OriginTooOld(l1OriginNumber, block.number);
            actual = abi.decode(result, (bytes32));
        }
        if (actual == bytes32(0)) revert L1OriginTooOld(l1OriginNumber, block.number);
        if (actual != l1OriginHash) revert L1OriginHashMismatch(l1OriginHash, actual);
    }

    /// @dev The public inputs both proof types commit to, hashed as Base's game hashes them; the
    /// TEE image hash names the TEE program, the range hash the ZK one.
    function _verifyProof(
        bytes calldata proofBytes,
        ProofType proofType,
        address proposer,
        bytes32 l1OriginHash,
        bytes32 startingRoot,
        uint256 startingBlock,
        bytes32 endingRoot,
        uint256 endingBlock,
        bytes memory intermediateRoots
    ) internal view {
        if (proofBytes.length < 1) revert InvalidProof();
        bool tee = proofType == ProofType.TEE;
        bytes32 journal = keccak256(
            abi.encodePacked(
                proposer,
                l1OriginHash,
                startingRoot,
                uint64(startingBlock),
                endingRoot,
                uint64(endingBlock),
                intermediateRoots,
                CONFIG_HASH,
                tee ? TEE_IMAGE_HASH : ZK_RANGE_HASH
            )
        );
        if (tee) {
            if (!IProofVerifier(TEE_VERIFIER).verify(abi.encodePacked(proposer, proofBytes), TEE_IMAGE_HASH, journal)) {
                revert InvalidProof();
            }
        } else if (proofType == ProofType.ZK) {
            if (!IProofVerifier(ZK_VERIFIER).verify(proofBytes, ZK_AGGREGATE_HASH, journal)) revert InvalidProof();
        } else {
            revert InvalidProofType();
        }
    }

    /// @dev Where the clone's arguments start in the call data: the clone puts their length + 2 in
    /// the last 2 bytes.
    function _argsOffset() internal pure returns (uint256 offset) {
        assembly {
            offset := sub(calldatasize(), shr(240, calldataload(sub(calldatasize(), 2))))
        }
    }

    function _argWord(uint256 argOffset) internal pure returns (bytes32 word) {
        uint256 at = _argsOffset() + argOffset;
        assembly {
            word := calldataload(at)
        }
    }

    function _argBytes(uint256 argOffset, uint256 length) internal pure returns (bytes memory out) {
        uint256 at = _argsOffset() + argOffset;
        out = new bytes(length);
        assembly {
            calldatacopy(add(out, 0x20), at, length)
        }
    }
}
