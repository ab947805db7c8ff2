// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @notice Several view calls in one `eth_call`, with the calling convention of Multicall3's
/// `aggregate3`. Never deployed: the indexer sends its creation code with each call ("deployless",
/// viem's `call({ code, data })`), so it works at any block of any chain, Multicall3 or not.
contract Aggregate3 {
    struct Call3 {
        address target;
        bool allowFailure;
        bytes callData;
    }

    struct Result {
        bool success;
        bytes returnData;
    }

    function aggregate3(Call3[] calldata calls) external returns (Result[] memory results) {
        results = new Result[](calls.length);
        for (uint256 i = 0; i < calls.length; ++i) {
            (bool success, bytes memory returnData) = calls[i].target.call(calls[i].callData);
            require(success || calls[i].allowFailure, "Aggregate3: call failed");
            results[i] = Result(success, returnData);
        }
    }
}
