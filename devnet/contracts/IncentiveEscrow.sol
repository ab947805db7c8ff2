// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";

interface IYieldVault {
    function distributeYield(uint256 amount) external;
}

/// @title IncentiveEscrow
/// @notice Holds kUSD set aside to subsidise skUSD yield. Distributions go through the vault's
/// own `distributeYield` (this escrow holds the vault's STRATEGIST_ROLE), so every subsidy is
/// a YieldDistributed event that vests like organic yield. The terms (target APY, TVL cap,
/// end date) are on chain so a reader can compute what the programme would pay and how long
/// the funds last.
contract IncentiveEscrow is AccessControl {
    using SafeERC20 for IERC20;

    bytes32 public constant DISTRIBUTOR_ROLE = keccak256("DISTRIBUTOR_ROLE");

    address public immutable token;
    address public immutable vault;
    uint256 public targetApyBps;
    uint256 public tvlCap;
    uint256 public endsAt;
    uint256 public totalFunded;
    uint256 public totalDistributed;

    event Funded(address indexed from, uint256 amount);
    event Distributed(address indexed vault, uint256 amount, uint256 timestamp);
    event TermsUpdated(uint256 targetApyBps, uint256 tvlCap, uint256 endsAt);

    constructor(address _token, address _vault, address _admin, uint256 _targetApyBps, uint256 _tvlCap, uint256 _endsAt) {
        token = _token;
        vault = _vault;
        _grantRole(DEFAULT_ADMIN_ROLE, _admin);
        _grantRole(DISTRIBUTOR_ROLE, _admin);
        _setTerms(_targetApyBps, _tvlCap, _endsAt);
    }

    function balance() external view returns (uint256) {
        return IERC20(token).balanceOf(address(this));
    }

    function fund(uint256 amount) external {
        IERC20(token).safeTransferFrom(msg.sender, address(this), amount);
        totalFunded += amount;
        emit Funded(msg.sender, amount);
    }

    function distribute(uint256 amount) external onlyRole(DISTRIBUTOR_ROLE) {
        totalDistributed += amount;
        IERC20(token).forceApprove(vault, amount);
        IYieldVault(vault).distributeYield(amount);
        emit Distributed(vault, amount, block.timestamp);
    }

    function setTerms(uint256 _targetApyBps, uint256 _tvlCap, uint256 _endsAt) external onlyRole(DEFAULT_ADMIN_ROLE) {
        _setTerms(_targetApyBps, _tvlCap, _endsAt);
    }

    function _setTerms(uint256 _targetApyBps, uint256 _tvlCap, uint256 _endsAt) private {
        targetApyBps = _targetApyBps;
        tvlCap = _tvlCap;
        endsAt = _endsAt;
        emit TermsUpdated(_targetApyBps, _tvlCap, _endsAt);
    }
}
