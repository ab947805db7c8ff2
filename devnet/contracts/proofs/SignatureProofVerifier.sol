// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";

/// @title SignatureProofVerifier
/// @notice The devnet's stand-in for Base's TEEVerifier and ZKVerifier: the "proof" of a range of
/// L2 blocks is a signature by the devnet's prover key over the journal the game computes (the hash
/// of the range's public inputs), where Base checks a Nitro enclave's signature or an SP1 proof of
/// the same journal. Proof bytes: the proposer (20 bytes), then the 65-byte signature, as Base's
/// TEEVerifier reads them; the journal already binds the proposer. Base's TEE verifier also keeps a
/// list of accepted proposers (TEEProverRegistry.isValidProposer); here the key is the only gate, so
/// a test can post a root the challenger must refute from an account of its own. One deployment per
/// proof type, each with its own key and program hash. Base's verifiers can be nullified after a
/// soundness bug; the devnet's games never ask.
contract SignatureProofVerifier {
    address internal immutable SIGNER;
    bytes32 internal immutable PROGRAM_HASH;

    error InvalidProofFormat();
    error InvalidSignature();
    error InvalidSigner(address signer);
    error ImageIdMismatch(bytes32 expected, bytes32 claimed);

    constructor(address signer_, bytes32 programHash_) {
        SIGNER = signer_;
        PROGRAM_HASH = programHash_;
    }

    function verify(bytes calldata proofBytes, bytes32 imageId, bytes32 journal) external view returns (bool) {
        if (proofBytes.length < 85) revert InvalidProofFormat();
        (address signer, ECDSA.RecoverError err,) = ECDSA.tryRecoverCalldata(journal, proofBytes[20:85]);
        if (err != ECDSA.RecoverError.NoError) revert InvalidSignature();
        if (signer != SIGNER) revert InvalidSigner(signer);
        if (imageId != PROGRAM_HASH) revert ImageIdMismatch(PROGRAM_HASH, imageId);
        return true;
    }
}
