// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IDisputeGame} from "./ProofTypes.sol";

/// @title DisputeGameFactory
/// @notice Creates dispute games as clones with immutable arguments and records each one: by
/// `keccak256(abi.encode(gameType, rootClaim, extraData))` and in an append-only list, each entry a
/// GameId (game type in the top 32 bits, creation time in the next 64, the clone's address in the
/// low 160). The external interface, the clone's code and the storage slots are those of Base's
/// DisputeGameFactory 1.4.0 (behind the proxy at 0x43ed…B40e), so a verifier finds and proves a game
/// the same way on both chains. The devnet keeps no proxy: this code runs at the proxy's address.
contract DisputeGameFactory {
    struct GameSearchResult {
        uint256 index;
        bytes32 metadata;
        uint64 timestamp;
        bytes32 rootClaim;
        bytes extraData;
    }

    string public constant version = "1.4.0+devnet";

    // Slots 0 to 100 as Base's proxy keeps them (OpenZeppelin's upgradeable Initializable and
    // Ownable, with their gaps), so the game tables below sit in Base's slots 101 to 105.
    uint8 private _initialized;
    bool private _initializing;
    uint256[50] private __contextGap;
    address private _owner;
    uint256[49] private __ownableGap;

    mapping(uint32 => address) public gameImpls;
    mapping(uint32 => uint256) public initBonds;
    mapping(bytes32 => bytes32) internal _disputeGames;
    bytes32[] internal _disputeGameList;
    mapping(uint32 => bytes) public gameArgs;

    event DisputeGameCreated(address indexed disputeProxy, uint32 indexed gameType, bytes32 indexed rootClaim);
    event ImplementationSet(address indexed impl, uint32 indexed gameType);
    event ImplementationArgsSet(uint32 indexed gameType, bytes args);
    event InitBondUpdated(uint32 indexed gameType, uint256 indexed newBond);
    event Initialized(uint8 version);
    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);

    error NoImplementation(uint32 gameType);
    error IncorrectBondAmount();
    error GameAlreadyExists(bytes32 uuid);
    error NotOwner(address caller);
    error AlreadyInitialized();
    error CloneFailed();

    function initialize(address owner_) external {
        if (_initialized != 0) revert AlreadyInitialized();
        _initialized = 1;
        _transferOwnership(owner_);
        emit Initialized(1);
    }

    function initVersion() external pure returns (uint8) {
        return 1;
    }

    function owner() external view returns (address) {
        return _owner;
    }

    function transferOwnership(address newOwner) external {
        _onlyOwner();
        _transferOwnership(newOwner);
    }

    function renounceOwnership() external {
        _onlyOwner();
        _transferOwnership(address(0));
    }

    function gameCount() external view returns (uint256) {
        return _disputeGameList.length;
    }

    /// @notice The game created with these arguments and its creation time; zero when there is none.
    function games(uint32 gameType, bytes32 rootClaim, bytes calldata extraData)
        external
        view
        returns (address proxy, uint64 timestamp)
    {
        (, timestamp, proxy) = _unpack(_disputeGames[getGameUUID(gameType, rootClaim, extraData)]);
    }

    function gameAtIndex(uint256 index) external view returns (uint32 gameType, uint64 timestamp, address proxy) {
        return _unpack(_disputeGameList[index]);
    }

    function create(uint32 gameType, bytes32 rootClaim, bytes calldata extraData)
        external
        payable
        returns (address proxy)
    {
        proxy = _createClone(gameType, rootClaim, extraData);
        IDisputeGame(proxy).initialize{value: msg.value}();
        _record(gameType, rootClaim, extraData, proxy);
    }

    function createWithInitData(uint32 gameType, bytes32 rootClaim, bytes calldata extraData, bytes calldata initData)
        external
        payable
        returns (address proxy)
    {
        proxy = _createClone(gameType, rootClaim, extraData);
        IDisputeGame(proxy).initializeWithInitData{value: msg.value}(initData);
        _record(gameType, rootClaim, extraData, proxy);
    }

    function getGameUUID(uint32 gameType, bytes32 rootClaim, bytes calldata extraData) public pure returns (bytes32) {
        return keccak256(abi.encode(gameType, rootClaim, extraData));
    }

    /// @notice Up to `n` games of `gameType`, newest first, searching back from index `start`.
    function findLatestGames(uint32 gameType, uint256 start, uint256 n)
        external
        view
        returns (GameSearchResult[] memory found)
    {
        if (start >= _disputeGameList.length || n == 0) return found;
        GameSearchResult[] memory buffer = new GameSearchResult[](n);
        uint256 count;
        for (uint256 i = start + 1; i > 0 && count < n; i--) {
            bytes32 id = _disputeGameList[i - 1];
            (uint32 type_, uint64 timestamp, address proxy) = _unpack(id);
            if (type_ != gameType) continue;
            buffer[count++] = GameSearchResult({
                index: i - 1,
                metadata: id,
                timestamp: timestamp,
                rootClaim: IDisputeGame(proxy).rootClaim(),
                extraData: IDisputeGame(proxy).extraData()
            });
        }
        found = new GameSearchResult[](count);
        for (uint256 j; j < count; j++) found[j] = buffer[j];
    }

    function setImplementation(uint32 gameType, address impl) external {
        _onlyOwner();
        gameImpls[gameType] = impl;
        emit ImplementationSet(impl, gameType);
    }

    function setImplementation(uint32 gameType, address impl, bytes calldata args) external {
        _onlyOwner();
        gameImpls[gameType] = impl;
        gameArgs[gameType] = args;
        emit ImplementationSet(impl, gameType);
        emit ImplementationArgsSet(gameType, args);
    }

    function setInitBond(uint32 gameType, uint256 initBond) external {
        _onlyOwner();
        initBonds[gameType] = initBond;
        emit InitBondUpdated(gameType, initBond);
    }

    function _createClone(uint32 gameType, bytes32 rootClaim, bytes calldata extraData)
        internal
        returns (address proxy)
    {
        address impl = gameImpls[gameType];
        if (impl == address(0)) revert NoImplementation(gameType);
        if (msg.value != initBonds[gameType]) revert IncorrectBondAmount();
        bytes32 uuid = getGameUUID(gameType, rootClaim, extraData);
        if (_disputeGames[uuid] != bytes32(0)) revert GameAlreadyExists(uuid);
        bytes32 parentHash = blockhash(block.number - 1);
        bytes memory implArgs = gameArgs[gameType];
        // The arguments every game reads from its own code: creator, root claim, the L1 parent
        // block hash, then the extra data (and, for a game type with arguments, the type and them).
        bytes memory args = implArgs.length == 0
            ? abi.encodePacked(msg.sender, rootClaim, parentHash, extraData)
            : abi.encodePacked(msg.sender, rootClaim, parentHash, gameType, extraData, implArgs);
        proxy = _cloneWithImmutableArgs(impl, args);
    }

    /// @dev The clone Base's factory deploys (Solady's LibClone `clone(implementation, data)` at the
    /// version Base pins): 98 bytes of proxy code that copy the call data, append `args` and their
    /// length + 2 as a 2-byte word, and DELEGATECALL the implementation; an empty call emits
    /// ReceiveETH(uint256) instead. Then `args` and that 2-byte length, so the code holds the
    /// arguments at offset 0x62 and a verifier reads them from the proven code.
    function _cloneWithImmutableArgs(address impl, bytes memory args) internal returns (address instance) {
        uint16 extraLength = uint16(args.length + 2);
        bytes memory runtime = abi.encodePacked(
            hex"36602c57343d527f",
            keccak256("ReceiveETH(uint256)"),
            hex"593da1005b363d3d373d3d3d3d61",
            extraLength,
            hex"806062363936013d73",
            impl,
            hex"5af43d3d93803e606057fd5bf3",
            args,
            extraLength
        );
        bytes memory creation = abi.encodePacked(hex"61", uint16(runtime.length), hex"3d81600a3d39f3", runtime);
        assembly {
            instance := create(0, add(creation, 0x20), mload(creation))
        }
        if (instance == address(0)) revert CloneFailed();
    }

    function _record(uint32 gameType, bytes32 rootClaim, bytes calldata extraData, address proxy) internal {
        bytes32 id = bytes32((uint256(gameType) << 224) | (uint256(uint64(block.timestamp)) << 160) | uint160(proxy));
        _disputeGames[getGameUUID(gameType, rootClaim, extraData)] = id;
        _disputeGameList.push(id);
        emit DisputeGameCreated(proxy, gameType, rootClaim);
    }

    function _unpack(bytes32 id) internal pure returns (uint32 gameType, uint64 timestamp, address proxy) {
        gameType = uint32(uint256(id) >> 224);
        timestamp = uint64(uint256(id) >> 160);
        proxy = address(uint160(uint256(id)));
    }

    function _onlyOwner() internal view {
        if (msg.sender != _owner) revert NotOwner(msg.sender);
    }

    function _transferOwnership(address newOwner) internal {
        emit OwnershipTransferred(_owner, newOwner);
        _owner = newOwner;
    }
}
