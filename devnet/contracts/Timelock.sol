// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {TimelockController} from "@openzeppelin/contracts/governance/TimelockController.sol";

/// @title Timelock
/// @notice The operator's TimelockController (Base 0x36A14976…0D72): plain OpenZeppelin, a 48 h
/// minimum delay, the Safe as proposer, canceller and executor, and the timelock as its own
/// admin (deployed with no admin account), so its role events are exactly the four of the
/// deploy transaction. Since 2026-08-06 it holds DEFAULT_ADMIN_ROLE (and MANAGER_ROLE on the
/// PSMs) on kUSD and the three PSMs.
contract Timelock is TimelockController {
    constructor(uint256 minDelay, address[] memory proposers, address[] memory executors, address admin)
        TimelockController(minDelay, proposers, executors, admin)
    {}
}
