// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";
import {Pausable} from "@openzeppelin/contracts/utils/Pausable.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/utils/ReentrancyGuard.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IERC20Metadata} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Metadata.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {IERC3156FlashBorrower} from "@openzeppelin/contracts/interfaces/IERC3156FlashBorrower.sol";
import {IERC3156FlashLender} from "@openzeppelin/contracts/interfaces/IERC3156FlashLender.sol";
import {IPriceFeed} from "./IPriceFeed.sol";

/// @title KUSDPSMV3
/// @notice The 2026-06-16 mint PSM (Base 0x07eBb486…5993, retired from minting 2026-07-10 and
/// kept as a redeem reserve), behaving as its deployed bytecode does:
/// - Fee tiers are LOWER bounds in stable units, stored strictly descending: the first tier with
///   `size >= threshold` wins, else `swapFees[stable]`; `virtualPegEnabled` overrides both (it
///   has no setter in the deployed code, so it stays false).
/// - Mint: `Swap.fee` is in stable units (USDC, 6 decimals). Redeem: `Swap.fee` is in kUSD units.
/// - Redeemed kUSD is kept as inventory (never burned); with `mintingEnabled` off, a mint pays
///   out of that inventory instead of minting.
/// - Depeg check needs an oracle unless disabled; the solvency check needs a vault unless disabled.
/// The live mint PSM (KUSDPSM) is this contract plus the redeem-burn fix.
contract KUSDPSMV3 is AccessControl, ReentrancyGuard, Pausable, IERC3156FlashLender {
    using SafeERC20 for IERC20;

    struct TieredFee {
        uint256 threshold;
        uint256 feeBps;
    }

    bytes32 public constant MANAGER_ROLE = keccak256("MANAGER_ROLE");
    bytes32 public constant ARBITRAGEUR_ROLE = keccak256("ARBITRAGEUR_ROLE");
    uint256 public constant DEFAULT_MAX_DEPEG_BPS = 200;
    uint256 public constant DEFAULT_MAX_ORACLE_DELAY = 1 hours;
    uint256 public constant MAX_ORACLE_DELAY_BOUND = 48 hours;
    bytes32 private constant CALLBACK_SUCCESS = keccak256("ERC3156FlashBorrower.onFlashLoan");

    IERC20 public immutable kUSD;
    address public vault;
    mapping(address => uint256) public swapFees;
    mapping(address => bool) public supportedStables;
    mapping(address => address) public oracles;
    mapping(address => uint256) public maxDepegBps;
    mapping(address => uint256) public maxOracleDelay;
    uint256 public minSolvencyThreshold = 10100;
    mapping(address => TieredFee[]) public tieredFees;
    bool public virtualPegEnabled;
    uint256 public virtualPegFeeBps;
    uint256 public flashFeeBps;
    bool public solvencyCheckDisabled;
    bool public depegCheckDisabled;
    mapping(address => uint256) public stableCaps;
    mapping(address => uint256) public currentExposure;
    address public treasury;
    mapping(address => uint256) public accruedFees;
    bool public mintingEnabled;

    event StableAdded(address indexed stable, uint256 fee, uint256 cap);
    event Swap(address indexed user, address indexed fromToken, address indexed toToken, uint256 amount, uint256 fee);
    event TieredFeeAdded(address indexed stable, uint256 threshold, uint256 feeBps);
    event ExposureUpdated(address indexed stable, uint256 newExposure);
    event SolvencyCheckDisabledUpdated(bool disabled);
    event DepegCheckDisabledUpdated(bool disabled);
    event MaxOracleDelayUpdated(address indexed stable, uint256 delaySeconds);
    event TreasuryUpdated(address indexed treasury);
    event SurplusSkimmed(address indexed stable, address indexed treasury, uint256 amount);

    error AmountOverflow();
    error BpsTooHigh();
    error FeeTooHigh();
    error FlashLoanCallbackFailed();
    error FlashLoanExceedsBalance();
    error InsufficientStableReserves();
    error InvalidOraclePrice();
    error DepegOracleNotConfigured();
    error OracleDelayTooHigh();
    error InvalidTreasury();
    error KusdMintFailed();
    error OraclePriceStale();
    error ProtocolInsolvency();
    error SkimExceedsSurplus();
    error StableCapExceeded();
    error StableDepegged();
    error StableNotSupported();
    error TooManyFeeTiers();
    error TreasuryNotSet();
    error UnsupportedToken();
    error ZeroFlashLoanAmount();
    error ZeroSkimAmount();

    constructor(address kusd, address admin) {
        kUSD = IERC20(kusd);
        _grantRole(DEFAULT_ADMIN_ROLE, admin);
        _grantRole(MANAGER_ROLE, admin);
    }

    // ---------------------------------------------------------------- fees

    function _selectFeeBps(address stable, uint256 stableUnitSize) internal view returns (uint256) {
        if (virtualPegEnabled) return virtualPegFeeBps;
        TieredFee[] storage tiers = tieredFees[stable];
        for (uint256 i = 0; i < tiers.length; i++) {
            if (stableUnitSize >= tiers[i].threshold) return tiers[i].feeBps;
        }
        return swapFees[stable];
    }

    /// @notice The fee for `amount` in the units given, with the tier chosen by `amount` as if it
    /// were stable units: exact for a mint (USDC in); a redemption chooses its tier from the kUSD
    /// amount converted to stable units, so pass that to reproduce a redemption's tier.
    function getFee(address stable, uint256 amount) public view returns (uint256) {
        return amount * _selectFeeBps(stable, amount) / 10_000;
    }

    // ---------------------------------------------------------------- swaps

    function swapStableForKUSD(address stable, uint256 amount) external nonReentrant whenNotPaused {
        _mint(stable, amount, msg.sender);
    }

    function swapStableForKUSDTo(address stable, uint256 amount, address recipient) external nonReentrant whenNotPaused {
        // The deployed code answers a zero recipient with StableNotSupported.
        if (recipient == address(0)) revert StableNotSupported();
        _mint(stable, amount, recipient);
    }

    function swapKUSDForStable(address stable, uint256 amount) external nonReentrant whenNotPaused {
        _redeem(stable, amount, msg.sender);
    }

    function swapKUSDForStableTo(address stable, uint256 amount, address recipient) external nonReentrant whenNotPaused {
        if (recipient == address(0)) revert StableNotSupported();
        _redeem(stable, amount, recipient);
    }

    function _mint(address stable, uint256 amount, address recipient) private {
        if (!supportedStables[stable]) revert StableNotSupported();
        _checkDepeg(stable);
        _checkSolvency();
        // The cap counts the larger of the booked exposure and the USDC actually held.
        uint256 exposure = currentExposure[stable];
        uint256 held = IERC20(stable).balanceOf(address(this));
        if ((held > exposure ? held : exposure) + amount > stableCaps[stable]) revert StableCapExceeded();
        uint256 fee = getFee(stable, amount);
        uint256 kusdOut = _toKusd(stable, amount - fee);
        currentExposure[stable] += amount;
        accruedFees[stable] += fee;
        IERC20(stable).safeTransferFrom(msg.sender, address(this), amount);
        if (mintingEnabled) {
            (bool ok,) = address(kUSD).call(abi.encodeWithSignature("mint(address,uint256)", recipient, kusdOut));
            if (!ok) revert KusdMintFailed();
        } else {
            kUSD.safeTransfer(recipient, kusdOut);
        }
        emit Swap(msg.sender, stable, address(kUSD), amount, fee);
        emit ExposureUpdated(stable, currentExposure[stable]);
    }

    function _redeem(address stable, uint256 amount, address recipient) private {
        if (!supportedStables[stable]) revert StableNotSupported();
        _checkDepeg(stable);
        _checkSolvency();
        uint256 fee = amount * _selectFeeBps(stable, _toStable(stable, amount)) / 10_000;
        uint256 stableOut = _toStable(stable, amount - fee);
        if (IERC20(stable).balanceOf(address(this)) < stableOut) revert InsufficientStableReserves();
        uint256 exposure = currentExposure[stable];
        currentExposure[stable] = exposure >= stableOut ? exposure - stableOut : 0;
        accruedFees[stable] += _toStable(stable, fee);
        kUSD.safeTransferFrom(msg.sender, address(this), amount);
        _afterRedeemPulled(amount);
        IERC20(stable).safeTransfer(recipient, stableOut);
        emit Swap(msg.sender, address(kUSD), stable, amount, fee);
        emit ExposureUpdated(stable, currentExposure[stable]);
    }

    /// @dev v3 keeps the redeemed kUSD; the live PSM overrides this to burn it.
    function _afterRedeemPulled(uint256 amount) internal virtual {}

    function _toKusd(address stable, uint256 stableAmount) internal view returns (uint256) {
        uint8 s = IERC20Metadata(stable).decimals();
        uint8 k = IERC20Metadata(address(kUSD)).decimals();
        if (s > k) return stableAmount / 10 ** (s - k);
        uint256 m = 10 ** (k - s);
        if (stableAmount > type(uint256).max / m) revert AmountOverflow();
        return stableAmount * m;
    }

    function _toStable(address stable, uint256 kusdAmount) internal view returns (uint256) {
        uint8 s = IERC20Metadata(stable).decimals();
        uint8 k = IERC20Metadata(address(kUSD)).decimals();
        if (k >= s) return kusdAmount / 10 ** (k - s);
        uint256 m = 10 ** (s - k);
        if (kusdAmount > type(uint256).max / m) revert AmountOverflow();
        return kusdAmount * m;
    }

    // ---------------------------------------------------------------- guards

    function _checkDepeg(address stable) internal view {
        if (depegCheckDisabled) return;
        address oracle = oracles[stable];
        if (oracle == address(0)) revert DepegOracleNotConfigured();
        (, int256 price,, uint256 updatedAt,) = IPriceFeed(oracle).latestRoundData();
        if (price <= 0) revert InvalidOraclePrice();
        uint256 maxDelay = maxOracleDelay[stable] == 0 ? DEFAULT_MAX_ORACLE_DELAY : maxOracleDelay[stable];
        if (block.timestamp > updatedAt + maxDelay) revert OraclePriceStale();
        uint8 d = IPriceFeed(oracle).decimals();
        uint256 p = d <= 18 ? uint256(price) * 10 ** (18 - d) : uint256(price) / 10 ** (d - 18);
        uint256 deviation = p > 1e18 ? p - 1e18 : 1e18 - p;
        uint256 limit = maxDepegBps[stable] == 0 ? DEFAULT_MAX_DEPEG_BPS : maxDepegBps[stable];
        if (deviation * 10_000 / 1e18 > limit) revert StableDepegged();
    }

    function _checkSolvency() internal view {
        if (solvencyCheckDisabled) return;
        if (vault == address(0)) revert ProtocolInsolvency();
        (bool ok, bytes memory data) = vault.staticcall(abi.encodeWithSignature("getSolvencyRatio()"));
        if (!ok || data.length != 32) revert ProtocolInsolvency();
        if (abi.decode(data, (uint256)) < minSolvencyThreshold) revert ProtocolInsolvency();
    }

    // ---------------------------------------------------------------- surplus

    /// @notice Fees the PSM can send to the treasury without dipping below the net backing.
    function skimmableSurplus(address stable) public view returns (uint256) {
        uint256 fees = accruedFees[stable];
        if (fees == 0) return 0;
        uint256 held = IERC20(stable).balanceOf(address(this));
        uint256 exposure = currentExposure[stable];
        uint256 netBacking = exposure > fees ? exposure - fees : 0;
        uint256 headroom = held > netBacking ? held - netBacking : 0;
        return fees < headroom ? fees : headroom;
    }

    function skimSurplus(address stable, uint256 amount) external onlyRole(MANAGER_ROLE) nonReentrant whenNotPaused {
        if (treasury == address(0)) revert TreasuryNotSet();
        if (!supportedStables[stable]) revert StableNotSupported();
        if (amount == 0) revert ZeroSkimAmount();
        if (amount > skimmableSurplus(stable)) revert SkimExceedsSurplus();
        accruedFees[stable] -= amount;
        uint256 exposure = currentExposure[stable];
        currentExposure[stable] = exposure >= amount ? exposure - amount : 0;
        IERC20(stable).safeTransfer(treasury, amount);
        emit SurplusSkimmed(stable, treasury, amount);
        emit ExposureUpdated(stable, currentExposure[stable]);
    }

    // ---------------------------------------------------------------- flash loans (ERC-3156)

    function maxFlashLoan(address token) external view override returns (uint256) {
        if (token != address(kUSD) && !supportedStables[token]) return 0;
        return IERC20(token).balanceOf(address(this));
    }

    function flashFee(address token, uint256 amount) public view override returns (uint256) {
        if (token != address(kUSD) && !supportedStables[token]) revert UnsupportedToken();
        if (hasRole(ARBITRAGEUR_ROLE, msg.sender)) return 0;
        return amount * flashFeeBps / 10_000;
    }

    function flashLoan(IERC3156FlashBorrower receiver, address token, uint256 amount, bytes calldata data)
        external
        override
        nonReentrant
        whenNotPaused
        returns (bool)
    {
        if (token != address(kUSD) && !supportedStables[token]) revert UnsupportedToken();
        if (amount == 0) revert ZeroFlashLoanAmount();
        if (amount > IERC20(token).balanceOf(address(this))) revert FlashLoanExceedsBalance();
        uint256 fee = flashFee(token, amount);
        IERC20(token).safeTransfer(address(receiver), amount);
        if (receiver.onFlashLoan(msg.sender, token, amount, fee, data) != CALLBACK_SUCCESS) revert FlashLoanCallbackFailed();
        IERC20(token).safeTransferFrom(address(receiver), address(this), amount + fee);
        if (token != address(kUSD)) accruedFees[token] += fee;
        return true;
    }

    // ---------------------------------------------------------------- admin

    function setMintingEnabled(bool enabled) external onlyRole(DEFAULT_ADMIN_ROLE) {
        mintingEnabled = enabled;
    }

    function addStable(address stable, uint256 feeBps, uint256 cap) external onlyRole(MANAGER_ROLE) {
        if (feeBps > 500) revert FeeTooHigh();
        supportedStables[stable] = true;
        swapFees[stable] = feeBps;
        stableCaps[stable] = cap;
        emit StableAdded(stable, feeBps, cap);
    }

    function setStableCap(address stable, uint256 cap) external onlyRole(MANAGER_ROLE) {
        stableCaps[stable] = cap;
    }

    function setTieredFees(address stable, TieredFee[] calldata fees) external onlyRole(MANAGER_ROLE) {
        if (fees.length > 20) revert TooManyFeeTiers();
        delete tieredFees[stable];
        for (uint256 i = 0; i < fees.length; i++) {
            if (fees[i].feeBps > 500) revert FeeTooHigh();
            if (i > 0 && fees[i].threshold >= fees[i - 1].threshold) {
                revert("KUSDPSM: tiers must be strictly descending by threshold");
            }
            tieredFees[stable].push(fees[i]);
            emit TieredFeeAdded(stable, fees[i].threshold, fees[i].feeBps);
        }
    }

    function setFlashFee(uint256 bps) external onlyRole(MANAGER_ROLE) {
        if (bps > 100) revert FeeTooHigh();
        flashFeeBps = bps;
    }

    function setVault(address vault_) external onlyRole(DEFAULT_ADMIN_ROLE) {
        vault = vault_;
    }

    function setOracle(address stable, address oracle) external onlyRole(MANAGER_ROLE) {
        oracles[stable] = oracle;
    }

    function setMaxDepegBps(address stable, uint256 bps) external onlyRole(MANAGER_ROLE) {
        if (bps > 1000) revert BpsTooHigh();
        maxDepegBps[stable] = bps;
    }

    function setMaxOracleDelay(address stable, uint256 delaySeconds) external onlyRole(MANAGER_ROLE) {
        if (delaySeconds > MAX_ORACLE_DELAY_BOUND) revert OracleDelayTooHigh();
        maxOracleDelay[stable] = delaySeconds;
        emit MaxOracleDelayUpdated(stable, delaySeconds);
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

    function unpause() external onlyRole(DEFAULT_ADMIN_ROLE) {
        _unpause();
    }

    function setTreasury(address treasury_) external onlyRole(DEFAULT_ADMIN_ROLE) {
        if (treasury_ == address(0)) revert InvalidTreasury();
        treasury = treasury_;
        emit TreasuryUpdated(treasury_);
    }
}
