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

/// @title KUSDPSMV1
/// @notice The first PSM (Base 0xFf3025ec…5Fbc, "redeem reserve" since the 2026-06-16 ceremony),
/// behaving as its deployed bytecode does, including what later versions changed:
/// - `getFee` compares the RAW amount with the tier thresholds. A mint passes USDC units, a
///   redemption passes kUSD wei, so every redemption above 1e12 wei lands in the lowest tier.
/// - Mint fee is in USDC units; redeem fee is in kUSD units.
/// - A redemption lowers `currentExposure` by the kUSD amount (18 decimals) against an
///   exposure kept in USDC units, so one redemption usually zeroes it.
/// - No treasury, no skim, no `SurplusSkimmed`, no `...To` swap variants, no burn on redeem.
/// - A shortfall is drawn from the insurance fund (`claim`) when one is set.
/// - No oracle configured → no depeg check; a vault without `getSolvencyRatio` → no check.
/// - `virtualPegEnabled` has no setter in the deployed code: it is always false.
contract KUSDPSMV1 is AccessControl, ReentrancyGuard, Pausable, IERC3156FlashLender {
    using SafeERC20 for IERC20;

    struct TieredFee {
        uint256 threshold;
        uint256 feeBps;
    }

    bytes32 public constant MANAGER_ROLE = keccak256("MANAGER_ROLE");
    bytes32 public constant ARBITRAGEUR_ROLE = keccak256("ARBITRAGEUR_ROLE");
    uint256 public constant DEFAULT_MAX_DEPEG_BPS = 200;
    bytes32 private constant CALLBACK_SUCCESS = keccak256("ERC3156FlashBorrower.onFlashLoan");

    IERC20 public immutable kUSD;
    address public insuranceFund;
    address public vault;
    mapping(address => uint256) public swapFees;
    mapping(address => bool) public supportedStables;
    mapping(address => address) public oracles;
    mapping(address => uint256) public maxDepegBps;
    uint256 public minSolvencyThreshold = 10100;
    mapping(address => TieredFee[]) public tieredFees;
    bool public virtualPegEnabled;
    uint256 public virtualPegFeeBps;
    uint256 public flashFeeBps;
    mapping(address => uint256) public stableCaps;
    mapping(address => uint256) public currentExposure;
    uint256 public insuranceDrawCooldown = 1 hours;
    uint256 public maxInsuranceDrawPerPeriod;
    uint256 public lastInsuranceDrawTimestamp;
    uint256 public insuranceDrawnThisPeriod;
    bool public mintingEnabled;

    event StableAdded(address indexed stable, uint256 fee, uint256 cap);
    event Swap(address indexed user, address indexed fromToken, address indexed toToken, uint256 amount, uint256 fee);
    event TieredFeeAdded(address indexed stable, uint256 threshold, uint256 feeBps);
    event ExposureUpdated(address indexed stable, uint256 newExposure);

    error AmountOverflow();
    error BpsTooHigh();
    error CooldownTooShort();
    error FeeTooHigh();
    error FlashLoanCallbackFailed();
    error FlashLoanExceedsBalance();
    error InsufficientStableReserves();
    error InsuranceDrawLimitExceededForThisPeriod();
    error InvalidOraclePrice();
    error KusdMintFailed();
    error OraclePriceStale();
    error ProtocolInsolvency();
    error StableCapExceeded();
    error StableDepegged();
    error StableNotSupported();
    error TooManyFeeTiers();
    error UnsupportedToken();
    error ZeroFlashLoanAmount();

    constructor(address kusd, address admin) {
        kUSD = IERC20(kusd);
        _grantRole(DEFAULT_ADMIN_ROLE, admin);
        _grantRole(MANAGER_ROLE, admin);
    }

    // ---------------------------------------------------------------- fees

    function getFee(address stable, uint256 amount) public view returns (uint256) {
        if (virtualPegEnabled) return amount * virtualPegFeeBps / 10_000;
        uint256 bps = swapFees[stable];
        TieredFee[] storage tiers = tieredFees[stable];
        for (uint256 i = 0; i < tiers.length; i++) {
            if (amount >= tiers[i].threshold) {
                bps = tiers[i].feeBps;
                break;
            }
        }
        return amount * bps / 10_000;
    }

    // ---------------------------------------------------------------- swaps

    function swapStableForKUSD(address stable, uint256 amount) external nonReentrant whenNotPaused {
        // The deployed order: oracle and solvency before the support check.
        _checkDepeg(stable);
        _checkSolvency();
        if (!supportedStables[stable]) revert StableNotSupported();
        if (currentExposure[stable] + amount > stableCaps[stable]) revert StableCapExceeded();
        uint256 fee = getFee(stable, amount);
        uint256 kusdOut = _toKusd(stable, amount - fee);
        currentExposure[stable] += amount;
        IERC20(stable).safeTransferFrom(msg.sender, address(this), amount);
        if (mintingEnabled) {
            (bool ok,) = address(kUSD).call(abi.encodeWithSignature("mint(address,uint256)", msg.sender, kusdOut));
            if (!ok) revert KusdMintFailed();
        } else {
            kUSD.safeTransfer(msg.sender, kusdOut);
        }
        emit Swap(msg.sender, stable, address(kUSD), amount, fee);
        emit ExposureUpdated(stable, currentExposure[stable]);
    }

    function swapKUSDForStable(address stable, uint256 amount) external nonReentrant whenNotPaused {
        _checkDepeg(stable);
        _checkSolvency();
        if (!supportedStables[stable]) revert StableNotSupported();
        uint256 fee = getFee(stable, amount);
        uint256 stableOut = _toStable(stable, amount - fee);
        uint256 held = IERC20(stable).balanceOf(address(this));
        if (held < stableOut && insuranceFund != address(0)) held = _drawInsurance(stable, stableOut - held, held);
        if (held < stableOut) revert InsufficientStableReserves();
        // Exposure is in stable units but is lowered by the kUSD amount: the deployed arithmetic.
        currentExposure[stable] = currentExposure[stable] >= amount ? currentExposure[stable] - amount : 0;
        kUSD.safeTransferFrom(msg.sender, address(this), amount);
        IERC20(stable).safeTransfer(msg.sender, stableOut);
        emit Swap(msg.sender, address(kUSD), stable, amount, fee);
        emit ExposureUpdated(stable, currentExposure[stable]);
    }

    function _drawInsurance(address stable, uint256 deficit, uint256 held) private returns (uint256) {
        if (block.timestamp >= lastInsuranceDrawTimestamp + insuranceDrawCooldown) {
            insuranceDrawnThisPeriod = 0;
            lastInsuranceDrawTimestamp = block.timestamp;
        }
        if (maxInsuranceDrawPerPeriod > 0 && insuranceDrawnThisPeriod + deficit > maxInsuranceDrawPerPeriod) {
            revert InsuranceDrawLimitExceededForThisPeriod();
        }
        (bool ok,) = insuranceFund.call(abi.encodeWithSignature("claim(address,uint256)", address(this), deficit));
        if (!ok) return held;
        insuranceDrawnThisPeriod += deficit;
        return IERC20(stable).balanceOf(address(this));
    }

    function _toKusd(address stable, uint256 stableAmount) private view returns (uint256) {
        uint8 s = IERC20Metadata(stable).decimals();
        uint8 k = IERC20Metadata(address(kUSD)).decimals();
        if (s > k) return stableAmount / 10 ** (s - k);
        uint256 m = 10 ** (k - s);
        if (stableAmount > type(uint256).max / m) revert AmountOverflow();
        return stableAmount * m;
    }

    function _toStable(address stable, uint256 kusdAmount) private view returns (uint256) {
        uint8 s = IERC20Metadata(stable).decimals();
        uint8 k = IERC20Metadata(address(kUSD)).decimals();
        if (k >= s) return kusdAmount / 10 ** (k - s);
        uint256 m = 10 ** (s - k);
        if (kusdAmount > type(uint256).max / m) revert AmountOverflow();
        return kusdAmount * m;
    }

    // ---------------------------------------------------------------- guards

    function _checkDepeg(address stable) internal view {
        address oracle = oracles[stable];
        if (oracle == address(0)) return;
        (, int256 price,, uint256 updatedAt,) = IPriceFeed(oracle).latestRoundData();
        if (price <= 0) revert InvalidOraclePrice();
        if (block.timestamp > updatedAt + 1 hours) revert OraclePriceStale();
        uint8 d = IPriceFeed(oracle).decimals();
        uint256 p = d <= 18 ? uint256(price) * 10 ** (18 - d) : uint256(price) / 10 ** (d - 18);
        uint256 deviation = p > 1e18 ? p - 1e18 : 1e18 - p;
        uint256 limit = maxDepegBps[stable] == 0 ? DEFAULT_MAX_DEPEG_BPS : maxDepegBps[stable];
        if (deviation * 10_000 / 1e18 > limit) revert StableDepegged();
    }

    function _checkSolvency() internal view {
        if (vault == address(0)) return;
        (bool ok, bytes memory data) = vault.staticcall(abi.encodeWithSignature("getSolvencyRatio()"));
        if (ok && data.length == 32 && abi.decode(data, (uint256)) < minSolvencyThreshold) revert ProtocolInsolvency();
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

    /// @dev No ordering check: tiers are scanned in the order given, first `amount >= threshold` wins.
    function setTieredFees(address stable, TieredFee[] calldata fees) external onlyRole(MANAGER_ROLE) {
        if (fees.length > 20) revert TooManyFeeTiers();
        delete tieredFees[stable];
        for (uint256 i = 0; i < fees.length; i++) {
            if (fees[i].feeBps > 500) revert FeeTooHigh();
            tieredFees[stable].push(fees[i]);
            emit TieredFeeAdded(stable, fees[i].threshold, fees[i].feeBps);
        }
    }

    function setFlashFee(uint256 bps) external onlyRole(MANAGER_ROLE) {
        if (bps > 100) revert FeeTooHigh();
        flashFeeBps = bps;
    }

    function setInsuranceFund(address fund) external onlyRole(DEFAULT_ADMIN_ROLE) {
        insuranceFund = fund;
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

    function setMinSolvencyThreshold(uint256 threshold) external onlyRole(DEFAULT_ADMIN_ROLE) {
        minSolvencyThreshold = threshold;
    }

    function setInsuranceDrawLimits(uint256 maxPerPeriod, uint256 cooldown) external onlyRole(DEFAULT_ADMIN_ROLE) {
        if (cooldown < 10 minutes) revert CooldownTooShort();
        maxInsuranceDrawPerPeriod = maxPerPeriod;
        insuranceDrawCooldown = cooldown;
    }

    function pause() external onlyRole(MANAGER_ROLE) {
        _pause();
    }

    /// @dev Unpausing needs the admin, pausing only a manager: the deployed asymmetry.
    function unpause() external onlyRole(DEFAULT_ADMIN_ROLE) {
        _unpause();
    }
}
