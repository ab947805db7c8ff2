// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title L2ToL1MessagePasser
/// @notice Base's predeploy at 0x4200…0016 (the implementation behind its proxy): a withdrawal to L1
/// is recorded as `sentMessages[hash] = true`, so the contract's storage root commits to every
/// withdrawal ever sent and each output root Base posts on Ethereum carries it. The same functions,
/// events and slots as Base's (sentMessages in slot 0, the nonce in slot 1; the nonce a caller sees
/// carries the message version in its top 2 bytes). Base's `burn()`, which destroys the ETH withdrawn,
/// is left out: nothing on the devnet reads that balance.
contract L2ToL1MessagePasser {
    uint16 public constant MESSAGE_VERSION = 1;
    /// @dev The L1 gas limit of a plain ETH transfer to this contract.
    uint256 internal constant RECEIVE_DEFAULT_GAS_LIMIT = 100_000;

    mapping(bytes32 => bool) public sentMessages;
    uint240 internal msgNonce;

    event MessagePassed(
        uint256 indexed nonce,
        address indexed sender,
        address indexed target,
        uint256 value,
        uint256 gasLimit,
        bytes data,
        bytes32 withdrawalHash
    );

    receive() external payable {
        initiateWithdrawal(msg.sender, RECEIVE_DEFAULT_GAS_LIMIT, bytes(""));
    }

    function version() external pure returns (string memory) {
        return "1.2.0+devnet";
    }

    function initiateWithdrawal(address target, uint256 gasLimit, bytes memory data) public payable {
        uint256 nonce = messageNonce();
        bytes32 withdrawalHash = keccak256(abi.encode(nonce, msg.sender, target, msg.value, gasLimit, data));
        sentMessages[withdrawalHash] = true;
        emit MessagePassed(nonce, msg.sender, target, msg.value, gasLimit, data, withdrawalHash);
        unchecked {
            ++msgNonce;
        }
    }

    function messageNonce() public view returns (uint256) {
        return (uint256(MESSAGE_VERSION) << 240) | uint256(msgNonce);
    }
}
