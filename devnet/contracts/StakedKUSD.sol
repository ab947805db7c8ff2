// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC4626} from "@openzeppelin/contracts/token/ERC20/extensions/ERC4626.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";

/// @title StakedKUSD (skUSD)
/// @notice The live staking vault (Base 0x96F5102C…DfA14, deployed 2026-07-03), as deployed:
/// - 24-decimal shares (offset 6 over kUSD's 18): price a share with `convertToAssets`.
/// - Assets are tracked, not read from `balanceOf`: a plain transfer in is a donation the
///   strategist may sweep.
/// - `distributeYield` vests linearly over `yieldVestingPeriod` (24 h by default) and emits
///   `YieldDistributed`; `totalAssets` leaves out what is still locked.
/// - When the last share leaves, the tracked assets and the vest reset to zero. Only the LAST
///   share: one wei of shares keeps an unvested distribution alive (KRN-26-SKUSD-SQUAT, open on
///   chain), so the devnet keeps that behaviour too.
contract StakedKUSD is ERC4626, AccessControl {
    using SafeERC20 for IERC20;

    bytes32 public constant STRATEGIST_ROLE = keccak256("STRATEGIST_ROLE");
    uint256 public constant MIN_VESTING_PERIOD = 1 hours;
    uint256 public constant MAX_VESTING_PERIOD = 30 days;
    uint256 public constant DEFAULT_VESTING_PERIOD = 24 hours;

    uint256 private _trackedAssets;
    uint256 public lastYieldAmount;
    uint256 public lastYieldTime;
    uint256 public yieldVestingPeriod;

    event YieldDistributed(address indexed strategist, uint256 amount, uint256 totalVesting, uint256 vestStart);
    event YieldVestingPeriodUpdated(uint256 oldPeriod, uint256 newPeriod);

    error InvalidVestingPeriod();

    constructor(IERC20 asset_, address admin) ERC4626(asset_) ERC20("Staked Kerne Synthetic Dollar", "skUSD") {
        _grantRole(DEFAULT_ADMIN_ROLE, admin);
        _grantRole(STRATEGIST_ROLE, admin);
        yieldVestingPeriod = DEFAULT_VESTING_PERIOD;
    }

    function _decimalsOffset() internal pure override returns (uint8) {
        return 6;
    }

    function lockedYield() public view returns (uint256) {
        uint256 amount = lastYieldAmount;
        if (amount == 0) return 0;
        uint256 elapsed = block.timestamp - lastYieldTime;
        if (elapsed >= yieldVestingPeriod) return 0;
        return amount * (yieldVestingPeriod - elapsed) / yieldVestingPeriod;
    }

    function totalAssets() public view override returns (uint256) {
        return _trackedAssets - lockedYield();
    }

    function distributeYield(uint256 amount) external onlyRole(STRATEGIST_ROLE) {
        IERC20(asset()).safeTransferFrom(msg.sender, address(this), amount);
        lastYieldAmount = lockedYield() + amount;
        lastYieldTime = block.timestamp;
        _trackedAssets += amount;
        emit YieldDistributed(msg.sender, amount, lastYieldAmount, block.timestamp);
    }

    function setYieldVestingPeriod(uint256 newPeriod) external onlyRole(DEFAULT_ADMIN_ROLE) {
        if (newPeriod < MIN_VESTING_PERIOD || newPeriod > MAX_VESTING_PERIOD) revert InvalidVestingPeriod();
        // Re-anchor the current vest so changing the period never unlocks or relocks yield at once.
        lastYieldAmount = lockedYield();
        lastYieldTime = block.timestamp;
        uint256 oldPeriod = yieldVestingPeriod;
        yieldVestingPeriod = newPeriod;
        emit YieldVestingPeriodUpdated(oldPeriod, newPeriod);
    }

    /// @notice Sends kUSD that arrived by plain transfer (not deposit or distribution) to `to`.
    function sweepDonations(address to) external onlyRole(STRATEGIST_ROLE) {
        if (to == address(0)) revert("zero recipient");
        uint256 raw = IERC20(asset()).balanceOf(address(this));
        if (raw <= _trackedAssets) return;
        IERC20(asset()).safeTransfer(to, raw - _trackedAssets);
    }

    function _deposit(address caller, address receiver, uint256 assets, uint256 shares) internal override {
        super._deposit(caller, receiver, assets, shares);
        _trackedAssets += assets;
    }

    function _withdraw(address caller, address receiver, address owner, uint256 assets, uint256 shares)
        internal
        override
    {
        _trackedAssets -= assets;
        super._withdraw(caller, receiver, owner, assets, shares);
        if (totalSupply() == 0) {
            _trackedAssets = 0;
            lastYieldAmount = 0;
            lastYieldTime = 0;
        }
    }

    function supportsInterface(bytes4 interfaceId) public view override returns (bool) {
        return super.supportsInterface(interfaceId);
    }
}
