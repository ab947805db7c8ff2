// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC4626} from "@openzeppelin/contracts/token/ERC20/extensions/ERC4626.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";
import {Pausable} from "@openzeppelin/contracts/utils/Pausable.sol";

/// @title KerneVault
/// @notice ERC-4626 WETH deposit vault with the deployed KerneVault's reporting surface.
/// `totalAssets` = WETH held + `offChainAssets` + `l1Assets` + `hedgingReserve`. The last three
/// are numbers the strategist writes on chain: `l1Assets` mirrors the equity of the hedge
/// account on the derivatives venue. A mirror is a claim, not a balance; the reports
/// recognise it only up to what the venue itself shows.
contract KerneVault is ERC4626, AccessControl, Pausable {
    using SafeERC20 for IERC20;

    bytes32 public constant STRATEGIST_ROLE = keccak256("STRATEGIST_ROLE");
    bytes32 public constant PAUSER_ROLE = keccak256("PAUSER_ROLE");

    address public immutable exchangeDepositAddress;
    uint256 public offChainAssets;
    uint256 public l1Assets;
    uint256 public hedgingReserve;
    uint256 public lastOffChainAssetsTimestamp;
    uint256 public lastL1AssetsTimestamp;
    uint256 public lastHedgingReserveTimestamp;
    bool public whitelistEnabled;
    mapping(address => bool) public whitelisted;

    event OffChainAssetsUpdated(uint256 oldAmount, uint256 newAmount, uint256 timestamp);
    event L1AssetsUpdated(uint256 oldAmount, uint256 newAmount, uint256 timestamp);
    event HedgingReserveUpdated(uint256 oldAmount, uint256 newAmount, uint256 timestamp);
    event FundsSwept(uint256 amount, address destination);

    error ZeroAddress();
    error ZeroAmount();
    error NotWhitelistedOrCompliant();

    constructor(
        address asset_,
        string memory name_,
        string memory symbol_,
        address admin_,
        address strategist_,
        address exchangeDepositAddress_
    ) ERC4626(IERC20(asset_)) ERC20(name_, symbol_) {
        if (admin_ == address(0) || exchangeDepositAddress_ == address(0)) revert ZeroAddress();
        _grantRole(DEFAULT_ADMIN_ROLE, admin_);
        _grantRole(PAUSER_ROLE, admin_);
        _grantRole(STRATEGIST_ROLE, strategist_);
        exchangeDepositAddress = exchangeDepositAddress_;
    }

    function getExchangeDepositAddress() external view returns (address) {
        return exchangeDepositAddress;
    }

    function totalAssets() public view override returns (uint256) {
        return IERC20(asset()).balanceOf(address(this)) + offChainAssets + l1Assets + hedgingReserve;
    }

    function maxDeposit(address receiver) public view override returns (uint256) {
        if (paused() || (whitelistEnabled && !whitelisted[receiver])) return 0;
        return super.maxDeposit(receiver);
    }

    function maxMint(address receiver) public view override returns (uint256) {
        if (paused() || (whitelistEnabled && !whitelisted[receiver])) return 0;
        return super.maxMint(receiver);
    }

    function updateOffChainAssets(uint256 amount) external onlyRole(STRATEGIST_ROLE) {
        emit OffChainAssetsUpdated(offChainAssets, amount, block.timestamp);
        offChainAssets = amount;
        lastOffChainAssetsTimestamp = block.timestamp;
    }

    function updateL1Assets(uint256 amount) external onlyRole(STRATEGIST_ROLE) {
        emit L1AssetsUpdated(l1Assets, amount, block.timestamp);
        l1Assets = amount;
        lastL1AssetsTimestamp = block.timestamp;
    }

    function updateHedgingReserve(uint256 amount) external onlyRole(STRATEGIST_ROLE) {
        emit HedgingReserveUpdated(hedgingReserve, amount, block.timestamp);
        hedgingReserve = amount;
        lastHedgingReserveTimestamp = block.timestamp;
    }

    /// @notice Moves WETH to the exchange deposit address to margin the hedge.
    function sweepToExchange(uint256 amount) external onlyRole(STRATEGIST_ROLE) {
        if (amount == 0) revert ZeroAmount();
        IERC20(asset()).safeTransfer(exchangeDepositAddress, amount);
        emit FundsSwept(amount, exchangeDepositAddress);
    }

    function setWhitelistEnabled(bool enabled) external onlyRole(DEFAULT_ADMIN_ROLE) {
        whitelistEnabled = enabled;
    }

    function setWhitelisted(address account, bool status) external onlyRole(DEFAULT_ADMIN_ROLE) {
        whitelisted[account] = status;
    }

    function pause() external onlyRole(PAUSER_ROLE) {
        _pause();
    }

    function unpause() external onlyRole(PAUSER_ROLE) {
        _unpause();
    }

    function _deposit(address caller, address receiver, uint256 assets, uint256 shares) internal override {
        if (whitelistEnabled && !whitelisted[receiver]) revert NotWhitelistedOrCompliant();
        super._deposit(caller, receiver, assets, shares);
    }

    function supportsInterface(bytes4 interfaceId) public view override returns (bool) {
        return super.supportsInterface(interfaceId);
    }
}
