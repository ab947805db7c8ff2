// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC4626} from "@openzeppelin/contracts/token/ERC20/extensions/ERC4626.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";
import {Pausable} from "@openzeppelin/contracts/utils/Pausable.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/utils/ReentrancyGuard.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";

interface IComplianceHook {
    function isCompliant(address vault, address account) external view returns (bool);
}

/// @dev The one call the deployed vault makes on its KerneOracleRouter.
interface IUsdValueOracle {
    function getValueUSD(address asset, uint256 amount) external view returns (uint256);
}

/// @dev The esKERNE hook the deployed vault calls on a full exit.
interface IEscrowForfeiter {
    function forfeit(address user) external;
}

/// @title KerneVault (v2)
/// @notice Devnet stand-in for the live KerneVault v2 on Base, 0x8ccc56B5624e2FDB592F6609d81F4c3798e3292B
/// (verified source = operator commit ecc95cf7, solc 0.8.24 viaIR). Written from that source so the
/// devnet's events, views and reverts are the ones an indexer meets on Base: `totalAssets` counts the
/// vault's own deposit ledger (not its token balance, so a donation does not move the share price)
/// plus the three strategist-written buckets, or plus the verification node's figure once one is
/// set; every bucket write is throttled by a cooldown and, once the bucket has held a non-zero value,
/// by a ±20% change limit, and re-runs the collateral-ratio breaker, which can pause the vault;
/// deposits pay a 5 bps fee, pass the whitelist and the compliance hook, and are logged as genesis
/// deposits; direct withdraw/redeem revert and exits go through the timed request/claim queue, whose
/// full exit fires the esKERNE forfeiture hook once an escrow token is set. Founder capture charges
/// the TVL-phased performance fee (0 in genesis, 5% below $1M, 10% above; TVL priced through the
/// optional price oracle, else as a $1 asset), capped per call at `maxFounderCaptureBps` of the ledger
/// and throttled by the bucket cooldown; the insurance fund alone may credit an injection to the
/// ledger; `checkAndPause` runs the minimum-solvency and trust-anchor check with its grace period.
///
/// Reproduced by outcome rather than by mechanism: the deployed contract is a constructed
/// implementation whose constructor runs the clone initializer, which sets a private `_initialized`
/// flag that nothing clears. On it, `setFactory` and `initialize` therefore always revert
/// `VaultAlreadyInitialized`, `factory` is always zero, and the clone-local asset, decimals, name and
/// symbol equal the constructor's; this contract gives those exact results without the clone-binding
/// code, which can never run here (so `FactoryAlreadySet`, `FactoryCannotBeZero` and
/// `UnauthorizedInitializer` are declared but unreachable, as they are on the deployed vault). In
/// the same way, the deployed reward-reserve rate is hard-wired to 0, so the reward-reserve leg of
/// founder capture never moves funds and `RewardReserveCaptured` is never emitted; its solvency
/// check has no strict caller, so `VaultInsolvent` is never thrown; `InsuranceFundContribution`
/// and `LiquidationRateLimited` are declared but never emitted; and `insuranceFundBalance`,
/// `maxLiquidationPerHourBps`, `hourlyLiquidationAmounts` and `crCircuitBreakerCooldown` are never
/// written, so they keep their initial values. Storage is laid out slot for slot as deployed (the
/// storage proofs read it). Nothing else is left out.
contract KerneVault is ERC4626, AccessControl, ReentrancyGuard, Pausable {
    bytes32 public constant STRATEGIST_ROLE = keccak256("STRATEGIST_ROLE");
    bytes32 public constant PAUSER_ROLE = keccak256("PAUSER_ROLE");

    uint256 public constant GENESIS_TVL_THRESHOLD = 100_000 * 1e18;
    uint256 public constant GROWTH_TVL_THRESHOLD = 1_000_000 * 1e18;
    uint256 public constant GROWTH_PHASE_FEE_BPS = 500;
    uint256 public constant MATURITY_PHASE_FEE_BPS = 1000;
    uint256 public constant MAX_DEPOSIT_FEE_BPS = 100;
    uint256 public constant CRITICAL_CR_THRESHOLD = 9900;
    uint256 public constant WARNING_CR_THRESHOLD = 10000;
    uint256 public constant SAFE_CR_THRESHOLD = 10100;
    uint256 public constant GRACE_PERIOD = 4 hours;

    address public immutable exchangeDepositAddress;

    // Every variable is declared in the deployed contract's order, so it sits in the slot it has on
    // Base (the storage proofs read them there; test/fidelity/storage-layout.test.ts compares).
    uint256 public offChainAssets;
    uint256 public l1Assets;
    address public l1DepositAddress;
    address public founder;
    /// @dev The clone initializer's flag: the deployed constructor sets it, and nothing clears it.
    bool private _initialized = true;

    // Fee settings; founder capture charges the phase schedule, not grossPerformanceFeeBps.
    uint256 public grossPerformanceFeeBps = 1000;

    bool public genesisPhaseActive = true;
    uint256 public genesisPhaseEndedAt;
    uint256 public genesisPhaseDeposits;

    uint256 public founderFeeBps;
    /// @dev Never written by the deployed contract.
    uint256 public insuranceFundBalance;
    address public insuranceFund;
    uint256 public insuranceFundBps = 1000;
    address public escrowToken;
    uint256 public hedgingReserve;
    // Deposits and withdrawals move this ledger; raw token balance is ignored by totalAssets().
    uint256 private _trackedOnChainAssets;
    uint256 public depositFeeBps = 5;
    address public emergencyRecipient;
    address public verificationNode;
    uint256 public lastReportedTimestamp;

    bool public whitelistEnabled;
    mapping(address => bool) public whitelisted;
    IComplianceHook public complianceHook;

    uint256 public maxTotalAssets;
    uint256 public projectedAPY;
    address public yieldOracle;
    address public priceOracle;
    address public trustAnchor;
    address public treasury;
    address public rewardReserveRecipient;
    uint256 public maxDepositLimit;
    uint256 public maxWithdrawLimit;
    uint256 public minSolvencyThreshold;
    uint256 public insolventSince;
    uint256 public withdrawalCooldown = 7 days;
    uint256 public maxOffChainChangeRateBps = 2000;
    uint256 public offChainUpdateCooldown = 10 minutes;
    uint256 public maxFounderCaptureBps = 500;
    uint256 public lastFounderCaptureTimestamp;

    // Once set, a bucket stays rate-limited even after being written back to zero.
    bool private _offChainAssetsBootstrapped;
    bool private _hedgingReserveBootstrapped;
    bool private _l1AssetsBootstrapped;
    uint256 public lastOffChainAssetsTimestamp;
    uint256 public lastHedgingReserveTimestamp;
    uint256 public lastL1AssetsTimestamp;

    bool public crCircuitBreakerActive;
    bool public crSoftAlertActive;
    uint256 public crCircuitBreakerTriggeredAt;
    /// @dev Never written by the deployed contract.
    uint256 public crCircuitBreakerCooldown = 4 hours;
    uint256 public dynamicCRBuffer;
    /// @dev Never written by the deployed contract.
    uint256 public maxLiquidationPerHourBps = 500;
    mapping(uint256 => uint256) public hourlyLiquidationAmounts;

    struct WithdrawalRequest {
        uint256 assets;
        uint256 shares;
        uint256 unlockTimestamp;
        bool claimed;
    }

    mapping(address => WithdrawalRequest[]) public withdrawalRequests;

    /// @dev Only a fresh clone can set a factory; the constructor closes this vault to it for good.
    address public factory;
    // The clone-local name, symbol, asset and decimals: on the deployed vault the constructor's own,
    // so ERC20's and ERC4626's serve them here; kept only so the slots after them are Base's.
    string private _name;
    string private _symbol;
    address private _assetClone;
    uint8 private _assetDecimalsClone;

    struct PrimeInfo {
        bool active;
        uint256 allocatedAssets;
    }

    mapping(address => PrimeInfo) public primeAccounts;

    event OffChainAssetsUpdated(uint256 oldAmount, uint256 newAmount, uint256 timestamp);
    event FundsSwept(uint256 amount, address destination);
    event HedgingReserveUpdated(uint256 oldAmount, uint256 newAmount, uint256 timestamp);
    event ProjectedAPYUpdated(uint256 oldAPY, uint256 newAPY, uint256 timestamp);
    event CircuitBreakersUpdated(uint256 maxDeposit, uint256 maxWithdraw, uint256 minSolvency);
    event ComplianceHookUpdated(address indexed oldHook, address indexed newHook);
    event YieldOracleUpdated(address indexed oldOracle, address indexed newOracle);
    event PriceOracleUpdated(address indexed oldOracle, address indexed newOracle);
    event VerificationNodeUpdated(address indexed oldNode, address indexed newNode);
    event FounderWealthCaptured(uint256 amount, address indexed recipient);
    event RewardReserveRecipientUpdated(address indexed oldRecipient, address indexed newRecipient);
    event RewardReserveCaptured(uint256 amount, address indexed recipient);
    event InsuranceFundContribution(uint256 amount);
    event InsuranceInjectionReceived(address indexed insuranceFund, uint256 amount);
    event EscrowTokenUpdated(address indexed oldToken, address indexed newToken);
    event EscrowForfeitTriggered(address indexed user);
    event WithdrawalRequested(
        address indexed user, uint256 requestId, uint256 assets, uint256 shares, uint256 unlockTimestamp
    );
    event WithdrawalClaimed(address indexed user, uint256 requestId, uint256 assets);
    event WithdrawalCooldownUpdated(uint256 oldCooldown, uint256 newCooldown);
    event L1AssetsUpdated(uint256 oldAmount, uint256 newAmount, uint256 timestamp);
    event L1DepositRequested(uint256 amount, address bridge);
    event TrustAnchorUpdated(address indexed oldAnchor, address indexed newAnchor);
    event OffChainUpdateParamsChanged(uint256 maxChangeRateBps, uint256 cooldown);
    event CRCircuitBreakerTriggered(uint256 cr, uint256 timestamp);
    event CRSoftAlertTriggered(uint256 cr, uint256 timestamp);
    event CRCircuitBreakerRecovered(uint256 cr, uint256 timestamp);
    event CRSoftAlertRecovered(uint256 cr, uint256 timestamp);
    event DynamicBufferUpdated(uint256 oldBuffer, uint256 newBuffer);
    event LiquidationRateLimited(uint256 attempted, uint256 allowed, uint256 hour);
    event DepositFeeUpdated(uint256 newFeeBps);
    event EmergencyRecipientUpdated(address indexed oldRecipient, address indexed newRecipient);
    event GenesisPhaseEnded(uint256 tvlAtEnd, uint256 timestamp);
    event GenesisPhaseDeposit(address indexed user, uint256 assets, uint256 totalGenesisDeposits);

    error UnauthorizedInitializer(address caller, address expectedFactory);
    error FactoryAlreadySet(address currentFactory);
    error FactoryCannotBeZero();
    error VaultAlreadyInitialized();
    error ZeroAddress();
    error ZeroAmount();
    error FeeTooHigh(uint256 provided, uint256 maximum);
    error VaultInsolvent();
    error NotInsuranceFund();
    error UpdateCooldownNotMet();
    error OffChainChangeExceedsMaxRate();
    error NoSweepDestination();
    error FounderNotSet();
    error FounderCaptureExceedsLimit(uint256 requested, uint256 maxAllowed);
    error SolvencyThresholdTooLow();
    error MaxChangeRateTooHigh();
    error CooldownTooShort();
    error CooldownTooLong();
    error L1BridgeNotSet();
    error AlreadyClaimed();
    error WithdrawalCooldownNotMet();
    error InsufficientLiquidBuffer();
    error NotPrimeAccount();
    error MustBePaused();
    error EmergencyRecipientNotSet();
    error EmergencyRecipientMismatch(address provided, address expected);
    error EmergencyRecipientLockedWhilePaused();
    error NotWhitelistedOrCompliant();
    error ComplianceCheckFailed();
    error DepositCapExceeded();
    error WithdrawLimitExceeded(uint256 requested, uint256 limit);
    error UseRequestWithdrawal();
    error GenesisAlreadyEnded();
    error CircuitBreakerNotActive();
    error CRStillLow();

    /// @dev As deployed, the constructor runs the clone initializer with no founder, no founder fee,
    /// a 10% base performance fee, no whitelist, no compliance hook and no cap; the reward reserve
    /// recipient defaults to the admin.
    constructor(
        IERC20 asset_,
        string memory name_,
        string memory symbol_,
        address admin_,
        address strategist_,
        address exchangeDepositAddress_
    ) ERC4626(asset_) ERC20(name_, symbol_) {
        exchangeDepositAddress = exchangeDepositAddress_;
        if (admin_ == address(0)) revert ZeroAddress();
        _grantRole(DEFAULT_ADMIN_ROLE, admin_);
        _grantRole(STRATEGIST_ROLE, strategist_);
        _grantRole(PAUSER_ROLE, admin_);
        _grantRole(PAUSER_ROLE, strategist_);
        rewardReserveRecipient = admin_;
    }

    // --- Clone initialization (closed on a constructed vault) ---

    function setFactory(address) external {
        revert VaultAlreadyInitialized();
    }

    function initialize(
        address,
        string memory,
        string memory,
        address,
        address,
        address,
        uint256,
        uint256,
        bool,
        address,
        uint256
    ) external {
        revert VaultAlreadyInitialized();
    }

    function _decimalsOffset() internal pure override returns (uint8) {
        return 3;
    }

    function getExchangeDepositAddress() public view returns (address) {
        return exchangeDepositAddress;
    }

    /// @dev With a verification node set, its figure replaces the three buckets; a node that fails
    /// or answers malformed counts as zero.
    function totalAssets() public view override returns (uint256) {
        address node = verificationNode;
        if (node != address(0)) {
            (bool success, bytes memory data) =
                node.staticcall(abi.encodeWithSignature("getVerifiedAssets(address)", address(this)));
            if (success && data.length == 32) return _trackedOnChainAssets + abi.decode(data, (uint256));
            return _trackedOnChainAssets;
        }
        return _trackedOnChainAssets + offChainAssets + l1Assets + hedgingReserve;
    }

    /// @notice Assets over shares in bps, with shares scaled back to asset units; 20000 when empty.
    function getSolvencyRatio() public view returns (uint256) {
        uint256 assets = totalAssets();
        uint256 liabilities = totalSupply() / (10 ** _decimalsOffset());
        if (liabilities == 0) return 20000;
        return (assets * 10000) / liabilities;
    }

    // --- Minimum-solvency check (only `checkAndPause` runs it on the deployed vault) ---

    function checkAndPause() external onlyRole(PAUSER_ROLE) {
        bool currentlySolvent = true;
        if (minSolvencyThreshold > 0 && totalSupply() > 1000) {
            if (getSolvencyRatio() < minSolvencyThreshold) currentlySolvent = false;
        }
        if (currentlySolvent && trustAnchor != address(0) && totalSupply() > 1000) {
            (bool success, bytes memory data) =
                trustAnchor.staticcall(abi.encodeWithSignature("isSolvent(address)", address(this)));
            currentlySolvent = success && data.length == 32 && abi.decode(data, (bool));
        }
        if (!currentlySolvent) {
            if (insolventSince == 0) {
                insolventSince = block.timestamp;
            } else if (block.timestamp - insolventSince > GRACE_PERIOD) {
                if (!paused()) _pause();
            }
        } else {
            insolventSince = 0;
        }
    }

    // --- Strategist-written buckets ---

    function updateOffChainAssets(uint256 amount) external onlyRole(STRATEGIST_ROLE) {
        if (block.timestamp < lastOffChainAssetsTimestamp + offChainUpdateCooldown) revert UpdateCooldownNotMet();
        uint256 oldAmount = offChainAssets;
        if (_offChainAssetsBootstrapped) _checkChangeRate(oldAmount, amount);
        offChainAssets = amount;
        if (amount > 0) _offChainAssetsBootstrapped = true;
        lastOffChainAssetsTimestamp = block.timestamp;
        lastReportedTimestamp = block.timestamp;
        emit OffChainAssetsUpdated(oldAmount, amount, block.timestamp);
        _checkCRCircuitBreaker();
    }

    function updateHedgingReserve(uint256 amount) external onlyRole(STRATEGIST_ROLE) {
        if (block.timestamp < lastHedgingReserveTimestamp + offChainUpdateCooldown) revert UpdateCooldownNotMet();
        uint256 oldAmount = hedgingReserve;
        if (_hedgingReserveBootstrapped) _checkChangeRate(oldAmount, amount);
        hedgingReserve = amount;
        if (amount > 0) _hedgingReserveBootstrapped = true;
        lastHedgingReserveTimestamp = block.timestamp;
        lastReportedTimestamp = block.timestamp;
        emit HedgingReserveUpdated(oldAmount, amount, block.timestamp);
        _checkCRCircuitBreaker();
    }

    function updateL1Assets(uint256 amount) external onlyRole(STRATEGIST_ROLE) {
        if (block.timestamp < lastL1AssetsTimestamp + offChainUpdateCooldown) revert UpdateCooldownNotMet();
        uint256 oldAmount = l1Assets;
        if (_l1AssetsBootstrapped) _checkChangeRate(oldAmount, amount);
        l1Assets = amount;
        if (amount > 0) _l1AssetsBootstrapped = true;
        lastL1AssetsTimestamp = block.timestamp;
        lastReportedTimestamp = block.timestamp;
        emit L1AssetsUpdated(oldAmount, amount, block.timestamp);
        _checkCRCircuitBreaker();
    }

    /// @dev A zero old value is measured against 1 wei, so a bootstrapped bucket cannot be zeroed
    /// and then rewritten freely.
    function _checkChangeRate(uint256 oldAmount, uint256 amount) private view {
        if (maxOffChainChangeRateBps == 0) return;
        uint256 baseline = oldAmount > 0 ? oldAmount : 1;
        uint256 maxChange = (baseline * maxOffChainChangeRateBps) / 10000;
        uint256 change = amount > oldAmount ? amount - oldAmount : oldAmount - amount;
        if (change > maxChange) revert OffChainChangeExceedsMaxRate();
    }

    /// @param bucketId 0 = offChainAssets, 1 = hedgingReserve, 2 = l1Assets
    function resetBucketBootstrap(uint8 bucketId) external onlyRole(DEFAULT_ADMIN_ROLE) {
        if (bucketId == 0) {
            _offChainAssetsBootstrapped = false;
        } else if (bucketId == 1) {
            _hedgingReserveBootstrapped = false;
        } else if (bucketId == 2) {
            _l1AssetsBootstrapped = false;
        } else {
            revert("KerneVault: invalid bucketId");
        }
    }

    /// @notice Informational only: no price or fee reads it.
    function updateProjectedAPY(uint256 _projectedAPY) external onlyRole(STRATEGIST_ROLE) {
        uint256 oldAPY = projectedAPY;
        projectedAPY = _projectedAPY;
        emit ProjectedAPYUpdated(oldAPY, _projectedAPY, block.timestamp);
    }

    function getProjectedAPY() external view returns (uint256) {
        return projectedAPY;
    }

    function setDynamicBuffer(uint256 bufferBps) external onlyRole(STRATEGIST_ROLE) {
        uint256 old = dynamicCRBuffer;
        dynamicCRBuffer = bufferBps;
        emit DynamicBufferUpdated(old, bufferBps);
    }

    // --- Moving assets out ---

    function sweepToExchange(uint256 amount) external onlyRole(DEFAULT_ADMIN_ROLE) nonReentrant whenNotPaused {
        if (amount == 0) revert ZeroAmount();
        address dest = exchangeDepositAddress != address(0)
            ? exchangeDepositAddress
            : (treasury != address(0) ? treasury : founder);
        if (dest == address(0)) revert NoSweepDestination();
        _trackedOnChainAssets -= amount;
        SafeERC20.safeTransfer(IERC20(asset()), dest, amount);
        emit FundsSwept(amount, dest);
    }

    function requestL1Deposit(uint256 amount) external onlyRole(DEFAULT_ADMIN_ROLE) nonReentrant whenNotPaused {
        if (amount == 0) revert ZeroAmount();
        if (l1DepositAddress == address(0)) revert L1BridgeNotSet();
        _trackedOnChainAssets -= amount;
        SafeERC20.safeTransfer(IERC20(asset()), l1DepositAddress, amount);
        emit L1DepositRequested(amount, l1DepositAddress);
    }

    function setL1DepositAddress(address _addr) external onlyRole(DEFAULT_ADMIN_ROLE) {
        l1DepositAddress = _addr;
    }

    function setPrimeAccount(address account, bool active) external onlyRole(DEFAULT_ADMIN_ROLE) {
        primeAccounts[account].active = active;
    }

    function transferToPrime(address prime, uint256 amount) external onlyRole(DEFAULT_ADMIN_ROLE) nonReentrant {
        if (!primeAccounts[prime].active) revert NotPrimeAccount();
        _trackedOnChainAssets -= amount;
        primeAccounts[prime].allocatedAssets += amount;
        SafeERC20.safeTransfer(IERC20(asset()), prime, amount);
    }

    /// @dev Pulls from `prime` (which must have approved the vault) and credits what actually arrived.
    function returnFromPrime(address prime, uint256 amount) external onlyRole(DEFAULT_ADMIN_ROLE) nonReentrant {
        PrimeInfo storage info = primeAccounts[prime];
        if (!info.active) revert NotPrimeAccount();
        info.allocatedAssets = info.allocatedAssets >= amount ? info.allocatedAssets - amount : 0;
        IERC20 token = IERC20(asset());
        uint256 balBefore = token.balanceOf(address(this));
        SafeERC20.safeTransferFrom(token, prime, address(this), amount);
        _trackedOnChainAssets += token.balanceOf(address(this)) - balBefore;
    }

    /// @notice Credits tokens the insurance fund has already sent in, up to the untracked surplus.
    /// @dev Open while paused, so an injection can restore solvency.
    function injectFromInsurance(uint256 amount) external nonReentrant {
        if (msg.sender != insuranceFund) revert NotInsuranceFund();
        uint256 surplus = IERC20(asset()).balanceOf(address(this)) - _trackedOnChainAssets;
        uint256 credit = amount < surplus ? amount : surplus;
        if (credit > 0) {
            _trackedOnChainAssets += credit;
            emit InsuranceInjectionReceived(msg.sender, credit);
        }
    }

    /// @notice Drains the whole token balance to the pre-committed recipient; only while paused.
    function emergencyExit(address recipient) external onlyRole(DEFAULT_ADMIN_ROLE) {
        if (!paused()) revert MustBePaused();
        address pinnedRecipient = emergencyRecipient;
        if (pinnedRecipient == address(0)) revert EmergencyRecipientNotSet();
        if (recipient != pinnedRecipient) revert EmergencyRecipientMismatch(recipient, pinnedRecipient);
        uint256 balance = IERC20(asset()).balanceOf(address(this));
        if (balance > 0) {
            _trackedOnChainAssets = 0;
            SafeERC20.safeTransfer(IERC20(asset()), pinnedRecipient, balance);
        }
    }

    function setEmergencyRecipient(address newRecipient) external onlyRole(DEFAULT_ADMIN_ROLE) {
        if (paused()) revert EmergencyRecipientLockedWhilePaused();
        if (newRecipient == address(0)) revert ZeroAddress();
        address oldRecipient = emergencyRecipient;
        emergencyRecipient = newRecipient;
        emit EmergencyRecipientUpdated(oldRecipient, newRecipient);
    }

    // --- Founder capture and the phased performance fee ---

    /// @notice Pays the phase fee on a strategist-stated gross yield to the treasury (else the
    /// founder). A no-op in genesis; otherwise throttled by the bucket cooldown from the second
    /// capture on and capped at `maxFounderCaptureBps` of the on-chain ledger.
    /// @dev The deployed split into a reward-reserve leg and a founder leg uses a reward-reserve
    /// rate that is always 0, so the whole fee is the founder leg.
    function captureFounderWealth(uint256 grossYieldAmount) external onlyRole(STRATEGIST_ROLE) {
        if (founder == address(0)) revert FounderNotSet();
        uint256 effectiveFeeBps = getEffectivePerformanceFee();
        if (effectiveFeeBps == 0) return;
        uint256 last = lastFounderCaptureTimestamp;
        if (last != 0 && block.timestamp < last + offChainUpdateCooldown) revert UpdateCooldownNotMet();
        uint256 fee = (grossYieldAmount * effectiveFeeBps) / 10000;
        uint256 maxExtractable = (_trackedOnChainAssets * maxFounderCaptureBps) / 10000;
        if (fee > maxExtractable) revert FounderCaptureExceedsLimit(fee, maxExtractable);
        lastFounderCaptureTimestamp = block.timestamp;
        if (fee > 0) {
            address recipient = treasury != address(0) ? treasury : founder;
            _trackedOnChainAssets -= fee;
            SafeERC20.safeTransfer(IERC20(asset()), recipient, fee);
            emit FounderWealthCaptured(fee, recipient);
        }
    }

    /// @notice 0 in genesis, then 5% below $1M of TVL and 10% from $1M.
    function getEffectivePerformanceFee() public view returns (uint256) {
        if (genesisPhaseActive) return 0;
        if (_tvlInUsd18() < GROWTH_TVL_THRESHOLD) return GROWTH_PHASE_FEE_BPS;
        return MATURITY_PHASE_FEE_BPS;
    }

    function getCurrentRewardReserveBps() public view returns (uint256) {
        return 0;
    }

    function getCurrentFounderRevenueBps() external view returns (uint256) {
        return getEffectivePerformanceFee();
    }

    // --- Admin configuration ---

    function pause() external onlyRole(PAUSER_ROLE) {
        _pause();
    }

    /// @dev Stricter than pause, so a strategist cannot undo a halt.
    function unpause() external onlyRole(DEFAULT_ADMIN_ROLE) {
        _unpause();
    }

    function setFounder(address _founder) external onlyRole(DEFAULT_ADMIN_ROLE) {
        if (_founder == address(0)) revert ZeroAddress();
        founder = _founder;
    }

    function setTreasury(address _treasury) external onlyRole(DEFAULT_ADMIN_ROLE) {
        if (_treasury == address(0)) revert ZeroAddress();
        treasury = _treasury;
    }

    function setRewardReserveRecipient(address _recipient) external onlyRole(DEFAULT_ADMIN_ROLE) {
        address old = rewardReserveRecipient;
        rewardReserveRecipient = _recipient;
        emit RewardReserveRecipientUpdated(old, _recipient);
    }

    function setInsuranceFund(address _insuranceFund) external onlyRole(DEFAULT_ADMIN_ROLE) {
        if (_insuranceFund == address(0)) revert ZeroAddress();
        insuranceFund = _insuranceFund;
    }

    function setEscrowToken(address _escrowToken) external onlyRole(DEFAULT_ADMIN_ROLE) {
        address old = escrowToken;
        escrowToken = _escrowToken;
        emit EscrowTokenUpdated(old, _escrowToken);
    }

    function setComplianceHook(address _hook) external onlyRole(DEFAULT_ADMIN_ROLE) {
        address old = address(complianceHook);
        complianceHook = IComplianceHook(_hook);
        emit ComplianceHookUpdated(old, _hook);
    }

    function setVerificationNode(address _node) external onlyRole(DEFAULT_ADMIN_ROLE) {
        address old = verificationNode;
        verificationNode = _node;
        emit VerificationNodeUpdated(old, _node);
    }

    function setTrustAnchor(address _anchor) external onlyRole(DEFAULT_ADMIN_ROLE) {
        address old = trustAnchor;
        trustAnchor = _anchor;
        emit TrustAnchorUpdated(old, _anchor);
    }

    function setYieldOracle(address _oracle) external onlyRole(DEFAULT_ADMIN_ROLE) {
        address old = yieldOracle;
        yieldOracle = _oracle;
        emit YieldOracleUpdated(old, _oracle);
    }

    function setPriceOracle(address _oracle) external onlyRole(DEFAULT_ADMIN_ROLE) {
        address old = priceOracle;
        priceOracle = _oracle;
        emit PriceOracleUpdated(old, _oracle);
    }

    function setFounderFee(uint256 bps) external onlyRole(DEFAULT_ADMIN_ROLE) {
        if (bps > 2000) revert FeeTooHigh(bps, 2000);
        founderFeeBps = bps;
    }

    function setPerformanceFee(uint256 bps) external onlyRole(DEFAULT_ADMIN_ROLE) {
        if (bps > 2000) revert FeeTooHigh(bps, 2000);
        grossPerformanceFeeBps = bps;
    }

    function setInsuranceFundBps(uint256 bps) external onlyRole(DEFAULT_ADMIN_ROLE) {
        if (bps > 3000) revert FeeTooHigh(bps, 3000);
        insuranceFundBps = bps;
    }

    function setMaxFounderCaptureBps(uint256 bps) external onlyRole(DEFAULT_ADMIN_ROLE) {
        if (bps > 10000) revert FeeTooHigh(bps, 10000);
        maxFounderCaptureBps = bps;
    }

    function setWhitelistEnabled(bool enabled) external onlyRole(DEFAULT_ADMIN_ROLE) {
        whitelistEnabled = enabled;
    }

    function setWhitelisted(address account, bool status) external onlyRole(DEFAULT_ADMIN_ROLE) {
        whitelisted[account] = status;
    }

    function setMaxTotalAssets(uint256 _maxTotalAssets) external onlyRole(DEFAULT_ADMIN_ROLE) {
        maxTotalAssets = _maxTotalAssets;
    }

    function setCircuitBreakers(uint256 _maxDepositLimit, uint256 _maxWithdrawLimit, uint256 _minSolvencyThreshold)
        external
        onlyRole(DEFAULT_ADMIN_ROLE)
    {
        if (_minSolvencyThreshold != 0 && _minSolvencyThreshold < 9000) revert SolvencyThresholdTooLow();
        maxDepositLimit = _maxDepositLimit;
        maxWithdrawLimit = _maxWithdrawLimit;
        minSolvencyThreshold = _minSolvencyThreshold;
        emit CircuitBreakersUpdated(_maxDepositLimit, _maxWithdrawLimit, _minSolvencyThreshold);
    }

    function setOffChainUpdateParams(uint256 _maxChangeRateBps, uint256 _cooldown)
        external
        onlyRole(DEFAULT_ADMIN_ROLE)
    {
        if (_maxChangeRateBps > 5000) revert MaxChangeRateTooHigh();
        if (_cooldown < 5 minutes) revert CooldownTooShort();
        maxOffChainChangeRateBps = _maxChangeRateBps;
        offChainUpdateCooldown = _cooldown;
        emit OffChainUpdateParamsChanged(_maxChangeRateBps, _cooldown);
    }

    function setWithdrawalCooldown(uint256 _cooldown) external onlyRole(DEFAULT_ADMIN_ROLE) {
        if (_cooldown > 30 days) revert CooldownTooLong();
        uint256 old = withdrawalCooldown;
        withdrawalCooldown = _cooldown;
        emit WithdrawalCooldownUpdated(old, _cooldown);
    }

    function setDepositFee(uint256 bps) external onlyRole(DEFAULT_ADMIN_ROLE) {
        if (bps > MAX_DEPOSIT_FEE_BPS) revert FeeTooHigh(bps, MAX_DEPOSIT_FEE_BPS);
        depositFeeBps = bps;
        emit DepositFeeUpdated(bps);
    }

    // --- Withdrawal queue (the only way out) ---

    /// @dev A request that leaves the caller with less than one wei's worth of shares is a full exit
    /// and, once an escrow token is set, forfeits the caller's unvested esKERNE (best effort: a
    /// reverting forfeit is swallowed).
    function requestWithdrawal(uint256 assets) external nonReentrant whenNotPaused returns (uint256) {
        if (maxWithdrawLimit > 0 && assets > maxWithdrawLimit) {
            revert WithdrawLimitExceeded(assets, maxWithdrawLimit);
        }
        uint256 shares = previewWithdraw(assets);
        if (shares == 0) revert ZeroAmount();
        _transfer(msg.sender, address(this), shares);
        uint256 requestId = withdrawalRequests[msg.sender].length;
        uint256 unlockTimestamp = block.timestamp + withdrawalCooldown;
        withdrawalRequests[msg.sender].push(
            WithdrawalRequest({assets: assets, shares: shares, unlockTimestamp: unlockTimestamp, claimed: false})
        );
        emit WithdrawalRequested(msg.sender, requestId, assets, shares, unlockTimestamp);
        address esc = escrowToken;
        if (esc != address(0) && balanceOf(msg.sender) < 10 ** _decimalsOffset()) {
            try IEscrowForfeiter(esc).forfeit(msg.sender) {
                emit EscrowForfeitTriggered(msg.sender);
            } catch {}
        }
        return requestId;
    }

    /// @dev Pays the locked shares at the claim-time price, not the amount recorded at request time.
    function claimWithdrawal(uint256 requestId) external nonReentrant whenNotPaused {
        WithdrawalRequest storage req = withdrawalRequests[msg.sender][requestId];
        if (req.claimed) revert AlreadyClaimed();
        if (block.timestamp < req.unlockTimestamp) revert WithdrawalCooldownNotMet();
        uint256 assetsOut = convertToAssets(req.shares);
        if (_trackedOnChainAssets < assetsOut) revert InsufficientLiquidBuffer();
        req.claimed = true;
        _burn(address(this), req.shares);
        _trackedOnChainAssets -= assetsOut;
        SafeERC20.safeTransfer(IERC20(asset()), msg.sender, assetsOut);
        emit WithdrawalClaimed(msg.sender, requestId, assetsOut);
    }

    function getWithdrawalRequestCount(address user) external view returns (uint256) {
        return withdrawalRequests[user].length;
    }

    // --- ERC-4626 ---

    /// @dev Under a whitelist, a receiver passes when whitelisted or approved by the compliance hook
    /// (the hook is asked either way).
    function maxDeposit(address receiver) public view override returns (uint256) {
        if (paused()) return 0;
        if (whitelistEnabled && !_whitelistedOrCompliant(receiver)) return 0;
        if (maxTotalAssets > 0 && totalAssets() >= maxTotalAssets) return 0;
        if (maxDepositLimit > 0) return maxDepositLimit;
        return type(uint256).max;
    }

    function _whitelistedOrCompliant(address receiver) private view returns (bool) {
        bool isWhitelisted = whitelisted[receiver];
        IComplianceHook hook = complianceHook;
        bool isCompliant = address(hook) != address(0) && hook.isCompliant(address(this), receiver);
        return isWhitelisted || isCompliant;
    }

    function maxMint(address receiver) public view override returns (uint256) {
        uint256 maxDep = maxDeposit(receiver);
        if (maxDep == 0) return 0;
        if (maxDep == type(uint256).max) return type(uint256).max;
        return previewDeposit(maxDep);
    }

    function previewDeposit(uint256 assets) public view override returns (uint256) {
        uint256 fee = (assets * depositFeeBps) / 10000;
        return super.previewDeposit(assets - fee);
    }

    /// @dev Grossed up by the fee so that mint and deposit cost the same per share.
    function previewMint(uint256 shares) public view override returns (uint256) {
        uint256 grossAssetsExFee = super.previewMint(shares);
        if (depositFeeBps == 0) return grossAssetsExFee;
        return Math.mulDiv(grossAssetsExFee, 10000, 10000 - depositFeeBps, Math.Rounding.Ceil);
    }

    function _deposit(address caller, address receiver, uint256 assets, uint256 shares) internal override {
        if (whitelistEnabled) {
            if (!_whitelistedOrCompliant(receiver)) revert NotWhitelistedOrCompliant();
        } else if (address(complianceHook) != address(0)) {
            if (!complianceHook.isCompliant(address(this), receiver)) revert ComplianceCheckFailed();
        }
        if (maxTotalAssets > 0 && totalAssets() + assets > maxTotalAssets) revert DepositCapExceeded();
        uint256 fee = (assets * depositFeeBps) / 10000;
        SafeERC20.safeTransferFrom(IERC20(asset()), caller, address(this), assets);
        if (fee > 0) {
            address feeRecipient = treasury != address(0) ? treasury : founder;
            if (feeRecipient != address(0)) {
                SafeERC20.safeTransfer(IERC20(asset()), feeRecipient, fee);
            } else {
                // Nobody to pay: the fee stays in the vault and on the ledger.
                fee = 0;
            }
        }
        _trackedOnChainAssets += assets - fee;
        _mint(receiver, shares);
        emit Deposit(caller, receiver, assets, shares);
        _trackGenesisDeposit(receiver, assets);
    }

    function _withdraw(address, address, address, uint256, uint256) internal pure override {
        revert UseRequestWithdrawal();
    }

    // --- Genesis phase ---

    /// @dev TVL in 18-decimal USD: through the price oracle when one is set and answers, else the
    /// asset is treated as $1 and scaled to 18 decimals. A reverting oracle falls back; an oracle
    /// without code, or one that answers short, reverts the caller, as deployed.
    function _tvlInUsd18() internal view returns (uint256) {
        uint256 tvl = totalAssets();
        if (tvl == 0) return 0;
        address oracle = priceOracle;
        if (oracle != address(0)) {
            try IUsdValueOracle(oracle).getValueUSD(asset(), tvl) returns (uint256 usd) {
                return usd;
            } catch {}
        }
        uint8 dec = decimals() - _decimalsOffset();
        if (dec < 18) return tvl * (10 ** (18 - dec));
        if (dec > 18) return tvl / (10 ** (dec - 18));
        return tvl;
    }

    function _trackGenesisDeposit(address user, uint256 assets) internal {
        if (!genesisPhaseActive) return;
        genesisPhaseDeposits += assets;
        emit GenesisPhaseDeposit(user, assets, genesisPhaseDeposits);
        if (_tvlInUsd18() >= GENESIS_TVL_THRESHOLD) {
            genesisPhaseActive = false;
            genesisPhaseEndedAt = block.timestamp;
            emit GenesisPhaseEnded(totalAssets(), block.timestamp);
        }
    }

    function endGenesisPhase() external onlyRole(DEFAULT_ADMIN_ROLE) {
        if (!genesisPhaseActive) revert GenesisAlreadyEnded();
        genesisPhaseActive = false;
        genesisPhaseEndedAt = block.timestamp;
        emit GenesisPhaseEnded(totalAssets(), block.timestamp);
    }

    // --- Collateral-ratio breaker ---

    function _checkCRCircuitBreaker() internal {
        uint256 cr = getSolvencyRatio();
        if (cr < CRITICAL_CR_THRESHOLD) {
            if (!crCircuitBreakerActive) {
                crCircuitBreakerActive = true;
                crCircuitBreakerTriggeredAt = block.timestamp;
                emit CRCircuitBreakerTriggered(cr, block.timestamp);
                if (!paused()) _pause();
            }
        } else if (cr < WARNING_CR_THRESHOLD) {
            if (!crSoftAlertActive) {
                crSoftAlertActive = true;
                emit CRSoftAlertTriggered(cr, block.timestamp);
            }
        } else if (cr >= SAFE_CR_THRESHOLD) {
            if (crCircuitBreakerActive && block.timestamp >= crCircuitBreakerTriggeredAt + crCircuitBreakerCooldown) {
                crCircuitBreakerActive = false;
                emit CRCircuitBreakerRecovered(cr, block.timestamp);
            }
            if (crSoftAlertActive) {
                crSoftAlertActive = false;
                emit CRSoftAlertRecovered(cr, block.timestamp);
            }
        }
    }

    /// @dev Clears the breaker only; the vault stays paused until the admin unpauses it.
    function recoverCRCircuitBreaker() external onlyRole(DEFAULT_ADMIN_ROLE) {
        if (!crCircuitBreakerActive) revert CircuitBreakerNotActive();
        if (block.timestamp < crCircuitBreakerTriggeredAt + crCircuitBreakerCooldown) revert UpdateCooldownNotMet();
        uint256 cr = getSolvencyRatio();
        if (cr < SAFE_CR_THRESHOLD) revert CRStillLow();
        crCircuitBreakerActive = false;
        emit CRCircuitBreakerRecovered(cr, block.timestamp);
    }
}
