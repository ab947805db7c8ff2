// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";

/// @title OperatorSafe
/// @notice An M-of-N owner multisig with Gnosis Safe's read surface (`getOwners`,
/// `getThreshold`, `nonce`, `isOwner`) and Safe's `SafeTx` EIP-712 hash, so the signatures a
/// Safe tool makes are the ones this contract checks. Only CALL (operation 0) without gas
/// refunds is supported; signatures are 65-byte ECDSA over the SafeTx hash, sorted by owner.
contract OperatorSafe {
    bytes32 private constant DOMAIN_SEPARATOR_TYPEHASH =
        keccak256("EIP712Domain(uint256 chainId,address verifyingContract)");
    bytes32 private constant SAFE_TX_TYPEHASH = keccak256(
        "SafeTx(address to,uint256 value,bytes data,uint8 operation,uint256 safeTxGas,uint256 baseGas,uint256 gasPrice,address gasToken,address refundReceiver,uint256 nonce)"
    );

    address[] private _owners;
    mapping(address => bool) public isOwner;
    uint256 private _threshold;
    uint256 public nonce;

    event SafeSetup(address indexed initiator, address[] owners, uint256 threshold);
    event ExecutionSuccess(bytes32 indexed txHash, uint256 payment);
    event SafeReceived(address indexed sender, uint256 value);

    error InvalidThreshold();
    error InvalidOwner(address owner);
    error UnsupportedOperation();
    error InvalidSignatures();
    error ExecutionFailed(bytes reason);

    constructor(address[] memory owners_, uint256 threshold_) {
        if (threshold_ == 0 || threshold_ > owners_.length) revert InvalidThreshold();
        for (uint256 i = 0; i < owners_.length; i++) {
            address owner = owners_[i];
            if (owner == address(0) || isOwner[owner]) revert InvalidOwner(owner);
            isOwner[owner] = true;
            _owners.push(owner);
        }
        _threshold = threshold_;
        emit SafeSetup(msg.sender, owners_, threshold_);
    }

    receive() external payable {
        emit SafeReceived(msg.sender, msg.value);
    }

    function getOwners() external view returns (address[] memory) {
        return _owners;
    }

    function getThreshold() external view returns (uint256) {
        return _threshold;
    }

    function VERSION() external pure returns (string memory) {
        return "1.4.1";
    }

    function domainSeparator() public view returns (bytes32) {
        return keccak256(abi.encode(DOMAIN_SEPARATOR_TYPEHASH, block.chainid, address(this)));
    }

    function getTransactionHash(
        address to,
        uint256 value,
        bytes calldata data,
        uint8 operation,
        uint256 safeTxGas,
        uint256 baseGas,
        uint256 gasPrice,
        address gasToken,
        address refundReceiver,
        uint256 _nonce
    ) public view returns (bytes32) {
        bytes32 safeTxHash = keccak256(
            abi.encode(
                SAFE_TX_TYPEHASH,
                to,
                value,
                keccak256(data),
                operation,
                safeTxGas,
                baseGas,
                gasPrice,
                gasToken,
                refundReceiver,
                _nonce
            )
        );
        return keccak256(abi.encodePacked(bytes1(0x19), bytes1(0x01), domainSeparator(), safeTxHash));
    }

    function execTransaction(
        address to,
        uint256 value,
        bytes calldata data,
        uint8 operation,
        uint256 safeTxGas,
        uint256 baseGas,
        uint256 gasPrice,
        address gasToken,
        address payable refundReceiver,
        bytes calldata signatures
    ) external payable returns (bool) {
        if (operation != 0 || gasPrice != 0) revert UnsupportedOperation();
        bytes32 txHash = getTransactionHash(
            to, value, data, operation, safeTxGas, baseGas, gasPrice, gasToken, refundReceiver, nonce
        );
        _checkSignatures(txHash, signatures);
        nonce++;
        (bool ok, bytes memory ret) = to.call{value: value}(data);
        if (!ok) revert ExecutionFailed(ret);
        emit ExecutionSuccess(txHash, 0);
        return true;
    }

    function _checkSignatures(bytes32 txHash, bytes calldata signatures) private view {
        if (signatures.length < _threshold * 65) revert InvalidSignatures();
        address last = address(0);
        for (uint256 i = 0; i < _threshold; i++) {
            address signer = ECDSA.recover(txHash, signatures[i * 65:(i + 1) * 65]);
            // Ascending order makes a repeated signer impossible without a set.
            if (!isOwner[signer] || signer <= last) revert InvalidSignatures();
            last = signer;
        }
    }
}
