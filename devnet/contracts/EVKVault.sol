// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC4626} from "@openzeppelin/contracts/token/ERC20/extensions/ERC4626.sol";
import {IERC4626} from "@openzeppelin/contracts/interfaces/IERC4626.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IERC20Metadata} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Metadata.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";

/// @title EVKVault
/// @notice An isolated lending vault with the read surface of an Euler v2 (EVK) vault:
/// `totalAssets` = `cash` + `totalBorrows`, ERC-4626 shares, `debtOf`, `interestRate`
/// (per second, 1e27), `interestAccumulator`, `LTVBorrow`, and the Borrow / Repay /
/// VaultStatus events. Two roles in one contract:
/// - an escrow vault (no collateral configured): holds collateral, lends nothing, and asks its
///   controller to check the owner's health whenever shares leave an account;
/// - a borrowable vault: lends its asset against shares of one collateral vault at `borrowLTV`.
/// Collateral is priced at par with the borrowed asset (kUSD against USDC on the devnet) and
/// interest is a fixed annual rate, compounded at each accrual: simple, and honest about it.
contract EVKVault is ERC4626 {
    using SafeERC20 for IERC20;
    using Math for uint256;

    uint256 private constant RAY = 1e27;
    uint256 private constant SECONDS_PER_YEAR = 365 days;

    address public immutable governorAdmin;
    uint256 public immutable annualRateBps;
    address public collateralVault;
    uint16 public borrowLTV; // basis points
    address public controller; // set on an escrow vault: the vault that lends against it

    uint256 private _cash;
    uint256 private _totalDebtShares;
    mapping(address => uint256) private _debtShares;
    uint256 private _accumulator = RAY;
    uint256 private _lastAccrual;

    event Borrow(address indexed account, uint256 assets);
    event Repay(address indexed account, uint256 assets);
    event VaultStatus(
        uint256 totalShares,
        uint256 totalBorrows,
        uint256 accumulatedFees,
        uint256 cash,
        uint256 interestAccumulator,
        uint256 interestRate,
        uint256 timestamp
    );

    error E_Unauthorized();
    error E_NoCollateral();
    error E_InsufficientCash();
    error E_AccountLiquidity();
    error E_RepayTooMuch();

    constructor(address asset_, string memory name_, string memory symbol_, address admin_, uint256 annualRateBps_)
        ERC4626(IERC20(asset_))
        ERC20(name_, symbol_)
    {
        governorAdmin = admin_;
        annualRateBps = annualRateBps_;
        _lastAccrual = block.timestamp;
    }

    modifier onlyGovernor() {
        if (msg.sender != governorAdmin) revert E_Unauthorized();
        _;
    }

    // ---------------------------------------------------------------- reads (EVK names)

    function cash() external view returns (uint256) {
        return _cash;
    }

    function interestRate() public view returns (uint256) {
        return annualRateBps * RAY / 10_000 / SECONDS_PER_YEAR;
    }

    function interestAccumulator() public view returns (uint256) {
        uint256 elapsed = block.timestamp - _lastAccrual;
        return _accumulator + _accumulator * annualRateBps * elapsed / (10_000 * SECONDS_PER_YEAR);
    }

    function totalBorrows() public view returns (uint256) {
        return _totalDebtShares.mulDiv(interestAccumulator(), RAY, Math.Rounding.Ceil);
    }

    function debtOf(address account) public view returns (uint256) {
        return _debtShares[account].mulDiv(interestAccumulator(), RAY, Math.Rounding.Ceil);
    }

    function totalAssets() public view override returns (uint256) {
        return _cash + totalBorrows();
    }

    function LTVBorrow(address collateral) external view returns (uint16) {
        return collateral == collateralVault ? borrowLTV : 0;
    }

    /// @notice Reverts unless `account`'s collateral covers its debt at `borrowLTV`.
    function checkAccountStatus(address account) public view {
        uint256 debt = debtOf(account);
        if (debt == 0) return;
        IERC4626 coll = IERC4626(collateralVault);
        uint256 collateralAssets = coll.convertToAssets(coll.balanceOf(account));
        uint8 collDecimals = IERC20Metadata(coll.asset()).decimals();
        uint8 debtDecimals = IERC20Metadata(asset()).decimals();
        uint256 debtInCollUnits = debt * 10 ** (collDecimals - debtDecimals);
        if (debtInCollUnits * 10_000 > collateralAssets * borrowLTV) revert E_AccountLiquidity();
    }

    // ---------------------------------------------------------------- borrowing

    function borrow(uint256 amount, address receiver) external returns (uint256) {
        if (collateralVault == address(0)) revert E_NoCollateral();
        _accrue();
        if (amount > _cash) revert E_InsufficientCash();
        uint256 shares = amount.mulDiv(RAY, _accumulator, Math.Rounding.Ceil);
        _debtShares[msg.sender] += shares;
        _totalDebtShares += shares;
        _cash -= amount;
        IERC20(asset()).safeTransfer(receiver, amount);
        checkAccountStatus(msg.sender);
        emit Borrow(msg.sender, amount);
        _emitStatus();
        return amount;
    }

    function repay(uint256 amount, address receiver) external returns (uint256) {
        _accrue();
        uint256 debt = debtOf(receiver);
        if (amount == type(uint256).max) amount = debt;
        if (amount > debt) revert E_RepayTooMuch();
        uint256 shares = amount == debt ? _debtShares[receiver] : amount.mulDiv(RAY, _accumulator);
        IERC20(asset()).safeTransferFrom(msg.sender, address(this), amount);
        _debtShares[receiver] -= shares;
        _totalDebtShares -= shares;
        _cash += amount;
        emit Repay(receiver, amount);
        _emitStatus();
        return amount;
    }

    // ---------------------------------------------------------------- governance

    function setCollateral(address vault_, uint16 ltvBps) external onlyGovernor {
        collateralVault = vault_;
        borrowLTV = ltvBps;
    }

    function setController(address controller_) external onlyGovernor {
        controller = controller_;
    }

    // ---------------------------------------------------------------- internals

    function _accrue() private {
        _accumulator = interestAccumulator();
        _lastAccrual = block.timestamp;
    }

    function _emitStatus() private {
        emit VaultStatus(totalSupply(), totalBorrows(), 0, _cash, _accumulator, interestRate(), block.timestamp);
    }

    function _deposit(address caller, address receiver, uint256 assets, uint256 shares) internal override {
        _accrue();
        super._deposit(caller, receiver, assets, shares);
        _cash += assets;
        _emitStatus();
    }

    function _withdraw(address caller, address receiver, address owner, uint256 assets, uint256 shares)
        internal
        override
    {
        _accrue();
        if (assets > _cash) revert E_InsufficientCash();
        _cash -= assets;
        super._withdraw(caller, receiver, owner, assets, shares);
        _emitStatus();
    }

    /// @dev Collateral may leave an account only while the controller still sees it healthy.
    function _update(address from, address to, uint256 value) internal override {
        super._update(from, to, value);
        if (from != address(0) && controller != address(0)) EVKVault(controller).checkAccountStatus(from);
    }
}
