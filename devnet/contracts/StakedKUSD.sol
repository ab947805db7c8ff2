// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC4626} from "@openzeppelin/contracts/token/ERC20/extensions/ERC4626.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";

/// @title StakedKUSD (skUSD)
/// @notice ERC-4626 staking vault over kUSD with the deployed skUSD's interface.
/// - Shares carry 24 decimals (decimals offset 6 over kUSD's 18).
/// - Assets are tracked, not read from `balanceOf`: a plain kUSD transfer to the vault is a
///   donation that no share claims until an admin sweeps it (`sweepDonations`).
/// - `distributeYield` vests linearly over `yieldVestingPeriod`; `totalAssets` excludes the
///   part still locked, so the share price rises smoothly instead of jumping.
contract StakedKUSD is ERC4626, AccessControl {
    using SafeERC20 for IERC20;

    bytes32 public constant STRATEGIST_ROLE = keccak256("STRATEGIST_ROLE");
    uint256 public constant DEFAULT_VESTING_PERIOD = 7 days;
    uint256 public constant MIN_VESTING_PERIOD = 1 hours;
    uint256 public constant MAX_VESTING_PERIOD = 30 days;

    uint256 public yieldVestingPeriod = DEFAULT_VESTING_PERIOD;
    /// @notice Amount vesting since `lastYieldTime` (the new distribution plus what was still locked).
    uint256 public lastYieldAmount;
    uint256 public lastYieldTime;
    uint256 private _trackedAssets;

    event YieldDistributed(address indexed strategist, uint256 amount, uint256 totalVesting, uint256 vestStart);
    event YieldVestingPeriodUpdated(uint256 oldPeriod, uint256 newPeriod);

    error InvalidVestingPeriod();

    constructor(address _asset, address _admin) ERC4626(IERC20(_asset)) ERC20("Staked kUSD", "skUSD") {
        _grantRole(DEFAULT_ADMIN_ROLE, _admin);
    }

    function _decimalsOffset() internal pure override returns (uint8) {
        return 6;
    }

    function lockedYield() public view returns (uint256) {
        uint256 end = lastYieldTime + yieldVestingPeriod;
        if (block.timestamp >= end) return 0;
        return lastYieldAmount * (end - block.timestamp) / yieldVestingPeriod;
    }

    function totalAssets() public view override returns (uint256) {
        return _trackedAssets - lockedYield();
    }

    function distributeYield(uint256 amount) external onlyRole(STRATEGIST_ROLE) {
        uint256 stillLocked = lockedYield();
        IERC20(asset()).safeTransferFrom(msg.sender, address(this), amount);
        _trackedAssets += amount;
        lastYieldAmount = stillLocked + amount;
        lastYieldTime = block.timestamp;
        emit YieldDistributed(msg.sender, amount, lastYieldAmount, block.timestamp);
    }

    function setYieldVestingPeriod(uint256 newPeriod) external onlyRole(DEFAULT_ADMIN_ROLE) {
        if (newPeriod < MIN_VESTING_PERIOD || newPeriod > MAX_VESTING_PERIOD) revert InvalidVestingPeriod();
        // Re-anchor the current vest so changing the period never unlocks or relocks yield at once.
        lastYieldAmount = lockedYield();
        lastYieldTime = block.timestamp;
        emit YieldVestingPeriodUpdated(yieldVestingPeriod, newPeriod);
        yieldVestingPeriod = newPeriod;
    }

    /// @notice Sends kUSD that arrived by plain transfer (not deposit or distribution) to `to`.
    function sweepDonations(address to) external onlyRole(DEFAULT_ADMIN_ROLE) {
        uint256 untracked = IERC20(asset()).balanceOf(address(this)) - _trackedAssets;
        IERC20(asset()).safeTransfer(to, untracked);
    }

    function _deposit(address caller, address receiver, uint256 assets, uint256 shares) internal override {
        _trackedAssets += assets;
        super._deposit(caller, receiver, assets, shares);
    }

    function _withdraw(address caller, address receiver, address owner, uint256 assets, uint256 shares)
        internal
        override
    {
        _trackedAssets -= assets;
        super._withdraw(caller, receiver, owner, assets, shares);
    }

    function supportsInterface(bytes4 interfaceId) public view override returns (bool) {
        return super.supportsInterface(interfaceId);
    }
}
