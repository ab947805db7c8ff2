// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC4626} from "@openzeppelin/contracts/token/ERC20/extensions/ERC4626.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";

/// @title StakedKUSDV1 (skUSD v1)
/// @notice The first staking vault (Base 0xdEd74F7E…09DB4, retired 2026-07-03), as deployed:
/// - 24-decimal shares (offset 6), tracked assets.
/// - `distributeYield` credits the whole amount to the share price AT ONCE and emits NO event
///   of its own: a distribution shows on chain only as the kUSD `Transfer` into the vault and
///   the jump of `convertToAssets`. There is no vesting and no `lockedYield`.
contract StakedKUSDV1 is ERC4626, AccessControl {
    using SafeERC20 for IERC20;

    bytes32 public constant STRATEGIST_ROLE = keccak256("STRATEGIST_ROLE");

    uint256 private _trackedAssets;

    constructor(IERC20 asset_, address admin) ERC4626(asset_) ERC20("Staked Kerne Synthetic Dollar", "skUSD") {
        _grantRole(DEFAULT_ADMIN_ROLE, admin);
        _grantRole(STRATEGIST_ROLE, admin);
    }

    function _decimalsOffset() internal pure override returns (uint8) {
        return 6;
    }

    function totalAssets() public view override returns (uint256) {
        return _trackedAssets;
    }

    function distributeYield(uint256 amount) external onlyRole(STRATEGIST_ROLE) {
        IERC20(asset()).safeTransferFrom(msg.sender, address(this), amount);
        _trackedAssets += amount;
    }

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
    }

    function supportsInterface(bytes4 interfaceId) public view override returns (bool) {
        return super.supportsInterface(interfaceId);
    }
}
