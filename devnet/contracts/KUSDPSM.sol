// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";
import {IAccessControl} from "@openzeppelin/contracts/access/IAccessControl.sol";
import {Pausable} from "@openzeppelin/contracts/utils/Pausable.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/utils/ReentrancyGuard.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IERC20Metadata} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Metadata.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {IERC3156FlashBorrower} from "@openzeppelin/contracts/interfaces/IERC3156FlashBorrower.sol";

interface IKUSDMintable is IERC20 {
    function mint(address to, uint256 amount) external;
}

/// @title KUSDPSM
/// @notice Peg stability module with the deployed KUSDPSM's external interface.
/// - Mint (stable -> kUSD): the stable stays in this PSM; kUSD is minted, which works only while
///   this PSM holds kUSD's MINTER_ROLE and `mintingEnabled` is set.
/// - Redeem (kUSD -> stable): the kUSD is kept by this PSM (never burned) and the stable is paid
///   only from this PSM's own balance. The fee is charged in kUSD by amount tier.
/// - Fees accrue as stable surplus, the only USDC an admin can move out (`skimSurplus`).
/// - ERC-3156 flash loans of the whole reserve, repaid in the same transaction.
/// `Swap.amount` is in fromToken units; `Swap.fee` is always in kUSD units (18 decimals).
contract KUSDPSM is AccessControl, Pausable, ReentrancyGuard {
    using SafeERC20 for IERC20;

    struct TieredFee {
        uint256 threshold; // upper bound (exclusive) of the tier, in stable units
        uint256 feeBps;
    }

    bytes32 public constant MANAGER_ROLE = keccak256("MANAGER_ROLE");
    bytes32 public constant ARBITRAGEUR_ROLE = keccak256("ARBITRAGEUR_ROLE");
    bytes32 private constant MINTER_ROLE = keccak256("MINTER_ROLE");
    bytes32 private constant CALLBACK_SUCCESS = keccak256("ERC3156FlashBorrower.onFlashLoan");
    uint256 private constant MAX_FEE_BPS = 500;
    uint256 private constant MAX_TIERS = 8;

    address public immutable kUSD;
    address public treasury;
    address public vault;
    bool public mintingEnabled;
    bool public solvencyCheckDisabled;
    bool public depegCheckDisabled;
    uint256 public flashFeeBps;
    uint256 public minSolvencyThreshold;

    mapping(address => bool) public supportedStables;
    mapping(address => uint256) public swapFees;
    mapping(address => uint256) public stableCaps;
    mapping(address => uint256) public currentExposure;
    mapping(address => uint256) public accruedFees;
    mapping(address => TieredFee[]) public tieredFees;
    mapping(address => uint256) private _scale;

    event Swap(address indexed user, address indexed fromToken, address indexed toToken, uint256 amount, uint256 fee);
    event StableAdded(address indexed stable, uint256 fee, uint256 cap);
    event TieredFeeAdded(address indexed stable, uint256 threshold, uint256 feeBps);
    event ExposureUpdated(address indexed stable, uint256 newExposure);
    event SurplusSkimmed(address indexed stable, address indexed treasury, uint256 amount);
    event TreasuryUpdated(address indexed treasury);
    event SolvencyCheckDisabledUpdated(bool disabled);
    event DepegCheckDisabledUpdated(bool disabled);

    error StableNotSupported();
    error UnsupportedToken();
    error StableCapExceeded();
    error InsufficientStableReserves();
    error KusdMintFailed();
    error FeeTooHigh();
    error BpsTooHigh();
    error TooManyFeeTiers();
    error InvalidTreasury();
    error TreasuryNotSet();
    error SkimExceedsSurplus();
    error ZeroSkimAmount();
    error ZeroFlashLoanAmount();
    error FlashLoanExceedsBalance();
    error FlashLoanCallbackFailed();
    error AmountOverflow();

    constructor(address _kUSD, address _admin) {
        kUSD = _kUSD;
        _grantRole(DEFAULT_ADMIN_ROLE, _admin);
        _grantRole(MANAGER_ROLE, _admin);
        mintingEnabled = true;
    }

    // ---------------------------------------------------------------- swaps

    function swapStableForKUSD(address stable, uint256 amount) external {
        _mintKUSD(stable, amount, msg.sender);
    }

    function swapStableForKUSDTo(address stable, uint256 amount, address recipient) external {
        _mintKUSD(stable, amount, recipient);
    }

    function swapKUSDForStable(address stable, uint256 amount) external {
        _redeemKUSD(stable, amount, msg.sender);
    }

    function swapKUSDForStableTo(address stable, uint256 amount, address recipient) external {
        _redeemKUSD(stable, amount, recipient);
    }

    function _mintKUSD(address stable, uint256 amount, address recipient) private nonReentrant whenNotPaused {
        if (!supportedStables[stable]) revert StableNotSupported();
        if (!mintingEnabled || !IAccessControl(kUSD).hasRole(MINTER_ROLE, address(this))) revert KusdMintFailed();
        uint256 exposure = currentExposure[stable] + amount;
        if (exposure > stableCaps[stable]) revert StableCapExceeded();

        uint256 gross = amount * _scale[stable];
        uint256 fee = gross * swapFees[stable] / 10_000;
        IERC20(stable).safeTransferFrom(msg.sender, address(this), amount);
        currentExposure[stable] = exposure;
        accruedFees[stable] += fee / _scale[stable];
        try IKUSDMintable(kUSD).mint(recipient, gross - fee) {}
        catch {
            revert KusdMintFailed();
        }
        emit ExposureUpdated(stable, exposure);
        emit Swap(msg.sender, stable, kUSD, amount, fee);
    }

    function _redeemKUSD(address stable, uint256 amount, address recipient) private nonReentrant whenNotPaused {
        if (!supportedStables[stable]) revert StableNotSupported();
        uint256 fee = getFee(stable, amount);
        uint256 payout = (amount - fee) / _scale[stable];
        if (IERC20(stable).balanceOf(address(this)) < payout) revert InsufficientStableReserves();

        IERC20(kUSD).safeTransferFrom(msg.sender, address(this), amount);
        uint256 exposure = currentExposure[stable];
        exposure = exposure > payout ? exposure - payout : 0;
        currentExposure[stable] = exposure;
        accruedFees[stable] += fee / _scale[stable];
        IERC20(stable).safeTransfer(recipient, payout);
        emit ExposureUpdated(stable, exposure);
        emit Swap(msg.sender, kUSD, stable, amount, fee);
    }

    /// @notice Redeem fee in kUSD for redeeming `amount` kUSD: the fee of the first tier whose
    /// threshold exceeds the amount (in stable units), else the flat swap fee.
    function getFee(address stable, uint256 amount) public view returns (uint256) {
        uint256 stableAmount = amount / _scale[stable];
        TieredFee[] storage tiers = tieredFees[stable];
        uint256 bps = swapFees[stable];
        for (uint256 i = 0; i < tiers.length; i++) {
            if (stableAmount < tiers[i].threshold) {
                bps = tiers[i].feeBps;
                break;
            }
        }
        return amount * bps / 10_000;
    }

    // ---------------------------------------------------------------- surplus

    /// @notice Stable that fees have left in this PSM beyond what redemptions owe.
    function skimmableSurplus(address stable) public view returns (uint256) {
        uint256 balance = IERC20(stable).balanceOf(address(this));
        uint256 fees = accruedFees[stable];
        return fees < balance ? fees : balance;
    }

    function skimSurplus(address stable, uint256 amount) external onlyRole(MANAGER_ROLE) nonReentrant {
        if (amount == 0) revert ZeroSkimAmount();
        if (treasury == address(0)) revert TreasuryNotSet();
        if (amount > skimmableSurplus(stable)) revert SkimExceedsSurplus();
        accruedFees[stable] -= amount;
        IERC20(stable).safeTransfer(treasury, amount);
        emit SurplusSkimmed(stable, treasury, amount);
    }

    // ---------------------------------------------------------------- flash loans (ERC-3156)

    function maxFlashLoan(address token) public view returns (uint256) {
        return supportedStables[token] ? IERC20(token).balanceOf(address(this)) : 0;
    }

    function flashFee(address token, uint256 amount) public view returns (uint256) {
        if (!supportedStables[token]) revert UnsupportedToken();
        return amount * flashFeeBps / 10_000;
    }

    function flashLoan(address receiver, address token, uint256 amount, bytes calldata data)
        external
        nonReentrant
        whenNotPaused
        returns (bool)
    {
        if (amount == 0) revert ZeroFlashLoanAmount();
        if (amount > maxFlashLoan(token)) revert FlashLoanExceedsBalance();
        uint256 fee = flashFee(token, amount);
        IERC20(token).safeTransfer(receiver, amount);
        if (IERC3156FlashBorrower(receiver).onFlashLoan(msg.sender, token, amount, fee, data) != CALLBACK_SUCCESS) {
            revert FlashLoanCallbackFailed();
        }
        // Pull, not trust: a borrower that did not approve repayment reverts the whole loan.
        IERC20(token).safeTransferFrom(receiver, address(this), amount + fee);
        accruedFees[token] += fee;
        return true;
    }

    // ---------------------------------------------------------------- admin

    function addStable(address stable, uint256 feeBps, uint256 cap) external onlyRole(DEFAULT_ADMIN_ROLE) {
        if (feeBps > MAX_FEE_BPS) revert FeeTooHigh();
        uint8 decimals = IERC20Metadata(stable).decimals();
        if (decimals > 18) revert UnsupportedToken();
        supportedStables[stable] = true;
        swapFees[stable] = feeBps;
        stableCaps[stable] = cap;
        _scale[stable] = 10 ** (18 - decimals);
        emit StableAdded(stable, feeBps, cap);
    }

    function setTieredFees(address stable, TieredFee[] calldata fees) external onlyRole(DEFAULT_ADMIN_ROLE) {
        if (!supportedStables[stable]) revert StableNotSupported();
        if (fees.length > MAX_TIERS) revert TooManyFeeTiers();
        delete tieredFees[stable];
        for (uint256 i = 0; i < fees.length; i++) {
            if (fees[i].feeBps > MAX_FEE_BPS) revert FeeTooHigh();
            tieredFees[stable].push(fees[i]);
            emit TieredFeeAdded(stable, fees[i].threshold, fees[i].feeBps);
        }
    }

    function setStableCap(address stable, uint256 cap) external onlyRole(DEFAULT_ADMIN_ROLE) {
        if (!supportedStables[stable]) revert StableNotSupported();
        stableCaps[stable] = cap;
    }

    function setMintingEnabled(bool enabled) external onlyRole(DEFAULT_ADMIN_ROLE) {
        mintingEnabled = enabled;
    }

    function setTreasury(address _treasury) external onlyRole(DEFAULT_ADMIN_ROLE) {
        if (_treasury == address(0)) revert InvalidTreasury();
        treasury = _treasury;
        emit TreasuryUpdated(_treasury);
    }

    function setVault(address _vault) external onlyRole(DEFAULT_ADMIN_ROLE) {
        vault = _vault;
    }

    function setFlashFee(uint256 bps) external onlyRole(DEFAULT_ADMIN_ROLE) {
        if (bps > MAX_FEE_BPS) revert BpsTooHigh();
        flashFeeBps = bps;
    }

    function setMinSolvencyThreshold(uint256 threshold) external onlyRole(DEFAULT_ADMIN_ROLE) {
        minSolvencyThreshold = threshold;
    }

    function setSolvencyCheckDisabled(bool disabled) external onlyRole(DEFAULT_ADMIN_ROLE) {
        solvencyCheckDisabled = disabled;
        emit SolvencyCheckDisabledUpdated(disabled);
    }

    function setDepegCheckDisabled(bool disabled) external onlyRole(DEFAULT_ADMIN_ROLE) {
        depegCheckDisabled = disabled;
        emit DepegCheckDisabledUpdated(disabled);
    }

    function pause() external onlyRole(MANAGER_ROLE) {
        _pause();
    }

    function unpause() external onlyRole(MANAGER_ROLE) {
        _unpause();
    }
}
