// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC4626} from "@openzeppelin/contracts/token/ERC20/extensions/ERC4626.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IERC20Metadata} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Metadata.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";
import {Pausable} from "@openzeppelin/contracts/utils/Pausable.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/utils/ReentrancyGuard.sol";
import {IERC3156FlashLender} from "@openzeppelin/contracts/interfaces/IERC3156FlashLender.sol";
import {IERC3156FlashBorrower} from "@openzeppelin/contracts/interfaces/IERC3156FlashBorrower.sol";

interface IComplianceHookV1 {
    function isCompliant(address vault, address account) external view returns (bool);
}

/// @title KerneVaultV1
/// @notice Devnet stand-in for the retired KerneVault v1 on Base, 0x8005bc7A...F2AC (verified source =
/// operator commit 50cb6b0, solc 0.8.24 viaIR). Written from that source so the devnet's events, views
/// and reverts are the ones an indexer meets on Base. v1 predates the hardening of v2 and keeps its
/// quirks on purpose: `totalAssets` is the raw token balance plus the strategist-written buckets
/// (or plus the verification node's figure when it reports a non-zero one), which are written
/// without cooldown or change limit; reverts are strings, not custom errors; the deployer also
/// receives DEFAULT_ADMIN_ROLE; `getSolvencyRatio` divides by the raw 21-decimal share supply, and
/// the trust anchor, when set, can also declare the vault insolvent; `transferToPrime` lets any
/// caller name itself as the prime account; withdrawal claims pay the amount recorded at request
/// time; `emergencyExit` is a user exit with a 5% fee, not an admin drain; there is no deposit fee
/// and no genesis phase.
///
/// Also as deployed: the vault is an ERC-3156 lender of its own asset (9 bps, free for strategists
/// and prime accounts; the fee stays in the vault and so raises the share price); founder capture
/// pays the flat `grossPerformanceFeeBps` of a strategist-stated gross yield to the treasury (else
/// the founder) and, when an insurance fund is set, approves and deposits `insuranceFundBps` of it
/// there; deposits, mints and flash loans under a whitelist also accept the compliance hook's
/// approval; `getProjectedAPY` prefers the yield oracle's non-zero TWAY; and the white-label
/// `initialize` is guarded only by `founder == 0`, so while no founder is set anyone may call it,
/// becoming admin and strategist and renaming the share token. Storage is laid out slot for slot as
/// deployed (the storage proofs read it). Nothing is left out.
contract KerneVaultV1 is ERC4626, AccessControl, ReentrancyGuard, Pausable, IERC3156FlashLender {
    bytes32 public constant STRATEGIST_ROLE = keccak256("STRATEGIST_ROLE");
    bytes32 public constant PAUSER_ROLE = keccak256("PAUSER_ROLE");

    // Declared in the deployed contract's order, so every variable is in the slot it has on Base
    // (the storage proofs read them there; test/fidelity/storage-layout.test.ts compares).
    uint256 public offChainAssets;
    uint256 public l1Assets;
    address public l1DepositAddress;

    address public immutable exchangeDepositAddress;

    address public founder;
    uint256 public grossPerformanceFeeBps = 1000;
    uint256 public founderFeeBps;
    /// @dev Declared by the deployed contract and never written by it.
    uint256 public insuranceFundBalance;
    address public insuranceFund;
    uint256 public insuranceFundBps = 1000;
    uint256 public hedgingReserve;
    address public verificationNode;
    uint256 public lastReportedTimestamp;

    bool public whitelistEnabled;
    mapping(address => bool) public whitelisted;
    IComplianceHookV1 public complianceHook;

    uint256 public maxTotalAssets;
    uint256 public projectedAPY;
    address public yieldOracle;
    address public trustAnchor;
    address public treasury;
    uint256 public maxDepositLimit;
    uint256 public maxWithdrawLimit;
    uint256 public minSolvencyThreshold;
    uint256 public insolventSince;

    uint256 public constant GRACE_PERIOD = 4 hours;

    uint256 public flashFeeBps = 9;
    uint256 public withdrawalCooldown = 7 days;

    struct WithdrawalRequest {
        uint256 assets;
        uint256 shares;
        uint256 unlockTimestamp;
        bool claimed;
    }

    mapping(address => WithdrawalRequest[]) public withdrawalRequests;

    // Set by `initialize`; until then (or when set to "") the constructor's name and symbol apply.
    string private _name;
    string private _symbol;

    struct PrimeInfo {
        bool active;
    }

    mapping(address => PrimeInfo) public primeAccounts;

    event OffChainAssetsUpdated(uint256 oldAmount, uint256 newAmount, uint256 timestamp);
    event FundsSwept(uint256 amount, address destination);
    event HedgingReserveUpdated(uint256 oldAmount, uint256 newAmount, uint256 timestamp);
    event ProjectedAPYUpdated(uint256 oldAPY, uint256 newAPY, uint256 timestamp);
    event CircuitBreakersUpdated(uint256 maxDeposit, uint256 maxWithdraw, uint256 minSolvency);
    event ComplianceHookUpdated(address indexed oldHook, address indexed newHook);
    event YieldOracleUpdated(address indexed oldOracle, address indexed newOracle);
    event VerificationNodeUpdated(address indexed oldNode, address indexed newNode);
    event FounderWealthCaptured(uint256 amount, address indexed recipient);
    event InsuranceFundContribution(uint256 amount);
    event WithdrawalRequested(
        address indexed user, uint256 requestId, uint256 assets, uint256 shares, uint256 unlockTimestamp
    );
    event WithdrawalClaimed(address indexed user, uint256 requestId, uint256 assets);
    event WithdrawalCooldownUpdated(uint256 oldCooldown, uint256 newCooldown);
    event L1AssetsUpdated(uint256 oldAmount, uint256 newAmount, uint256 timestamp);
    event L1DepositRequested(uint256 amount, address bridge);

    /// @dev As deployed, the constructor runs the white-label initializer with no founder, no
    /// founder fee, a 10% performance fee and no whitelist.
    constructor(
        IERC20 asset_,
        string memory name_,
        string memory symbol_,
        address admin_,
        address strategist_,
        address exchangeDepositAddress_
    ) ERC4626(asset_) ERC20(name_, symbol_) {
        exchangeDepositAddress = exchangeDepositAddress_;
        _initialize(name_, symbol_, admin_, strategist_, address(0), 0, 1000, false);
    }

    /// @notice The white-label initializer. As deployed, its only guard is `founder == 0` (the
    /// asset argument is ignored): while no founder is set anyone may call it, and the caller
    /// becomes admin, strategist and pauser beside `admin_`.
    function initialize(
        address,
        string memory name_,
        string memory symbol_,
        address admin_,
        address founder_,
        uint256 founderFeeBps_,
        uint256 performanceFeeBps_,
        bool whitelistEnabled_
    ) external {
        require(founder == address(0), "Already initialized");
        _initialize(name_, symbol_, admin_, msg.sender, founder_, founderFeeBps_, performanceFeeBps_, whitelistEnabled_);
    }

    /// @dev The caller (the deployer, in the constructor) is made an admin as well as `admin_`.
    function _initialize(
        string memory name_,
        string memory symbol_,
        address admin_,
        address strategist_,
        address founder_,
        uint256 founderFeeBps_,
        uint256 performanceFeeBps_,
        bool whitelistEnabled_
    ) private {
        require(admin_ != address(0), "Admin cannot be zero address");
        _name = name_;
        _symbol = symbol_;
        _grantRole(DEFAULT_ADMIN_ROLE, admin_);
        _grantRole(DEFAULT_ADMIN_ROLE, msg.sender);
        _grantRole(STRATEGIST_ROLE, strategist_);
        _grantRole(PAUSER_ROLE, admin_);
        _grantRole(PAUSER_ROLE, strategist_);
        founder = founder_;
        founderFeeBps = founderFeeBps_;
        if (performanceFeeBps_ > 0 && performanceFeeBps_ <= 2000) grossPerformanceFeeBps = performanceFeeBps_;
        whitelistEnabled = whitelistEnabled_;
    }

    function name() public view override(ERC20, IERC20Metadata) returns (string memory) {
        return bytes(_name).length > 0 ? _name : super.name();
    }

    function symbol() public view override(ERC20, IERC20Metadata) returns (string memory) {
        return bytes(_symbol).length > 0 ? _symbol : super.symbol();
    }

    function _decimalsOffset() internal pure override returns (uint8) {
        return 3;
    }

    function getExchangeDepositAddress() public view returns (address) {
        return exchangeDepositAddress;
    }

    /// @dev A verification node's non-zero figure replaces the three buckets; a zero, failing or
    /// malformed answer falls back to them.
    function totalAssets() public view override returns (uint256) {
        address node = verificationNode;
        if (node != address(0)) {
            (bool success, bytes memory data) =
                node.staticcall(abi.encodeWithSignature("getVerifiedAssets(address)", address(this)));
            if (success && data.length == 32) {
                uint256 verifiedAssets = abi.decode(data, (uint256));
                if (verifiedAssets > 0) return super.totalAssets() + verifiedAssets;
            }
        }
        return super.totalAssets() + offChainAssets + l1Assets + hedgingReserve;
    }

    /// @notice Assets over raw share supply in bps (the shares are not scaled to asset units); 20000 when empty.
    function getSolvencyRatio() public view returns (uint256) {
        uint256 assets = totalAssets();
        uint256 liabilities = totalSupply();
        if (liabilities == 0) return 20000;
        return (assets * 10000) / liabilities;
    }

    function checkAndPause() external {
        _updateSolvency(false);
    }

    /// @dev Below `minSolvencyThreshold`, or declared insolvent by the trust anchor (a failing or
    /// malformed answer counts as insolvent), for longer than the grace period, the vault pauses
    /// itself; strict callers revert instead.
    function _updateSolvency(bool strict) internal {
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
            if (strict) revert("Vault: Insolvent");
        } else {
            insolventSince = 0;
        }
    }

    // --- Strategist-written buckets ---

    function updateOffChainAssets(uint256 amount) external onlyRole(STRATEGIST_ROLE) {
        uint256 oldAmount = offChainAssets;
        offChainAssets = amount;
        lastReportedTimestamp = block.timestamp;
        emit OffChainAssetsUpdated(oldAmount, amount, block.timestamp);
    }

    function updateHedgingReserve(uint256 amount) external onlyRole(STRATEGIST_ROLE) {
        uint256 oldAmount = hedgingReserve;
        hedgingReserve = amount;
        lastReportedTimestamp = block.timestamp;
        emit HedgingReserveUpdated(oldAmount, amount, block.timestamp);
    }

    function updateL1Assets(uint256 amount) external onlyRole(STRATEGIST_ROLE) {
        uint256 oldAmount = l1Assets;
        l1Assets = amount;
        lastReportedTimestamp = block.timestamp;
        emit L1AssetsUpdated(oldAmount, amount, block.timestamp);
    }

    function updateProjectedAPY(uint256 _projectedAPY) external onlyRole(STRATEGIST_ROLE) {
        uint256 oldAPY = projectedAPY;
        projectedAPY = _projectedAPY;
        emit ProjectedAPYUpdated(oldAPY, _projectedAPY, block.timestamp);
    }

    /// @notice The yield oracle's time-weighted yield when it reports a non-zero one, else the
    /// strategist's figure.
    function getProjectedAPY() external view returns (uint256) {
        address oracle = yieldOracle;
        if (oracle != address(0)) {
            (bool success, bytes memory data) =
                oracle.staticcall(abi.encodeWithSignature("getTWAY(address)", address(this)));
            if (success && data.length == 32) {
                uint256 tway = abi.decode(data, (uint256));
                if (tway > 0) return tway;
            }
        }
        return projectedAPY;
    }

    // --- Moving assets out ---

    function sweepToExchange(uint256 amount) external onlyRole(DEFAULT_ADMIN_ROLE) nonReentrant whenNotPaused {
        require(amount > 0, "Amount must be greater than zero");
        address dest = exchangeDepositAddress != address(0)
            ? exchangeDepositAddress
            : (treasury != address(0) ? treasury : founder);
        require(dest != address(0), "No sweep destination");
        SafeERC20.safeTransfer(IERC20(asset()), dest, amount);
        emit FundsSwept(amount, dest);
    }

    function requestL1Deposit(uint256 amount) external onlyRole(DEFAULT_ADMIN_ROLE) nonReentrant whenNotPaused {
        require(amount > 0, "Amount must be greater than zero");
        require(l1DepositAddress != address(0), "L1 bridge not set");
        SafeERC20.safeTransfer(IERC20(asset()), l1DepositAddress, amount);
        emit L1DepositRequested(amount, l1DepositAddress);
    }

    function setL1DepositAddress(address _addr) external onlyRole(DEFAULT_ADMIN_ROLE) {
        l1DepositAddress = _addr;
    }

    function setPrimeAccount(address account, bool active) external onlyRole(DEFAULT_ADMIN_ROLE) {
        primeAccounts[account].active = active;
    }

    function batchSetPrimeAccounts(address[] calldata accounts, bool status) external onlyRole(DEFAULT_ADMIN_ROLE) {
        for (uint256 i = 0; i < accounts.length; i++) {
            primeAccounts[accounts[i]].active = status;
        }
    }

    /// @dev As deployed: a caller that names itself as `prime` passes the check without any role.
    function transferToPrime(address prime, uint256 amount) external nonReentrant {
        require(hasRole(STRATEGIST_ROLE, msg.sender) || msg.sender == prime, "Not authorized");
        require(prime != address(0), "Invalid prime address");
        _updateSolvency(true);
        SafeERC20.safeTransfer(IERC20(asset()), prime, amount);
    }

    function returnFromPrime(uint256 amount) external nonReentrant {
        require(hasRole(STRATEGIST_ROLE, msg.sender) || primeAccounts[msg.sender].active, "Not authorized");
        SafeERC20.safeTransferFrom(IERC20(asset()), msg.sender, address(this), amount);
        _updateSolvency(false);
    }

    /// @notice A holder's exit past the queue while the vault is paused, for a 5% fee that goes to the
    /// insurance fund (or stays in the vault when none is set).
    function emergencyExit(uint256 assets) external nonReentrant {
        require(paused(), "Vault not paused");
        require(block.timestamp >= insolventSince + 3 days, "Grace period not met");
        uint256 shares = previewWithdraw(assets);
        require(shares > 0, "Zero shares");
        require(balanceOf(msg.sender) >= shares, "Insufficient balance");
        uint256 fee = (assets * 500) / 10000;
        uint256 netAssets = assets - fee;
        require(IERC20(asset()).balanceOf(address(this)) >= assets, "Insufficient liquid buffer");
        _burn(msg.sender, shares);
        if (fee > 0 && insuranceFund != address(0)) {
            SafeERC20.safeTransfer(IERC20(asset()), insuranceFund, fee);
        }
        SafeERC20.safeTransfer(IERC20(asset()), msg.sender, netAssets);
        emit WithdrawalClaimed(msg.sender, type(uint256).max, netAssets);
    }

    // --- Founder capture and the insurance fund ---

    /// @notice Pays `grossPerformanceFeeBps` of a strategist-stated gross yield to the treasury (else
    /// the founder), then approves and deposits `insuranceFundBps` of it into the insurance fund.
    function captureFounderWealth(uint256 grossYieldAmount) external onlyRole(STRATEGIST_ROLE) {
        require(founder != address(0), "Founder not set");
        uint256 fee = (grossYieldAmount * grossPerformanceFeeBps) / 10000;
        if (fee > 0) {
            address recipient = treasury != address(0) ? treasury : founder;
            SafeERC20.safeTransfer(IERC20(asset()), recipient, fee);
            emit FounderWealthCaptured(fee, recipient);
        }
        uint256 insuranceContribution = (grossYieldAmount * insuranceFundBps) / 10000;
        if (insuranceContribution > 0 && insuranceFund != address(0)) {
            IERC20(asset()).approve(insuranceFund, insuranceContribution);
            (bool success,) = insuranceFund.call(abi.encodeWithSignature("deposit(uint256)", insuranceContribution));
            require(success, "Insurance deposit failed");
            emit InsuranceFundContribution(insuranceContribution);
        }
    }

    function drawFromInsuranceFund(uint256 amount) external onlyRole(STRATEGIST_ROLE) {
        address fund = insuranceFund;
        require(fund != address(0), "Insurance fund not set");
        (bool success,) = fund.call(abi.encodeWithSignature("claim(address,uint256)", address(this), amount));
        require(success, "Insurance claim failed");
    }

    // --- ERC-3156 flash loans of the asset ---

    function maxFlashLoan(address token) external view returns (uint256) {
        if (token != asset()) return 0;
        if (paused()) return 0;
        return IERC20(token).balanceOf(address(this));
    }

    /// @dev Free for strategists and prime accounts (judged on the caller).
    function flashFee(address token, uint256 amount) public view returns (uint256) {
        require(token == asset(), "Unsupported token");
        if (hasRole(STRATEGIST_ROLE, msg.sender) || primeAccounts[msg.sender].active) return 0;
        return (amount * flashFeeBps) / 10000;
    }

    /// @dev The fee stays in the vault's balance, which is its totalAssets.
    function flashLoan(IERC3156FlashBorrower receiver, address token, uint256 amount, bytes calldata data)
        external
        nonReentrant
        whenNotPaused
        returns (bool)
    {
        require(token == asset(), "Unsupported token");
        uint256 fee = flashFee(token, amount);
        if (whitelistEnabled) {
            bool isCompliant = whitelisted[address(receiver)] || hasRole(STRATEGIST_ROLE, msg.sender);
            if (!isCompliant && address(complianceHook) != address(0)) {
                isCompliant = complianceHook.isCompliant(address(this), address(receiver));
            }
            require(isCompliant, "Receiver not compliant");
        }
        SafeERC20.safeTransfer(IERC20(token), address(receiver), amount);
        require(
            receiver.onFlashLoan(msg.sender, token, amount, fee, data) == keccak256("ERC3156FlashBorrower.onFlashLoan"),
            "Flash loan callback failed"
        );
        SafeERC20.safeTransferFrom(IERC20(token), address(receiver), address(this), amount + fee);
        _updateSolvency(false);
        return true;
    }

    // --- Admin configuration ---

    function pause() external onlyRole(PAUSER_ROLE) {
        _pause();
    }

    function unpause() external onlyRole(DEFAULT_ADMIN_ROLE) {
        _unpause();
    }

    function setFounder(address _founder) external onlyRole(DEFAULT_ADMIN_ROLE) {
        require(_founder != address(0), "Founder cannot be zero address");
        founder = _founder;
    }

    /// @dev Checked with a string rather than the role modifier, as deployed.
    function setFounderFee(uint256 bps) external {
        require(hasRole(DEFAULT_ADMIN_ROLE, msg.sender), "Not authorized");
        require(bps <= 2000, "Fee too high");
        founderFeeBps = bps;
    }

    function setPerformanceFee(uint256 bps) external onlyRole(DEFAULT_ADMIN_ROLE) {
        require(bps <= 2000, "Fee too high");
        grossPerformanceFeeBps = bps;
    }

    function setInsuranceFundBps(uint256 bps) external onlyRole(DEFAULT_ADMIN_ROLE) {
        require(bps <= 3000, "Contribution too high");
        insuranceFundBps = bps;
    }

    function setFlashFee(uint256 bps) external onlyRole(DEFAULT_ADMIN_ROLE) {
        require(bps <= 100, "Fee too high");
        flashFeeBps = bps;
    }

    function setTreasury(address _treasury) external onlyRole(DEFAULT_ADMIN_ROLE) {
        treasury = _treasury;
    }

    function setInsuranceFund(address _insuranceFund) external onlyRole(DEFAULT_ADMIN_ROLE) {
        insuranceFund = _insuranceFund;
    }

    /// @dev No event on v1.
    function setTrustAnchor(address _anchor) external onlyRole(DEFAULT_ADMIN_ROLE) {
        trustAnchor = _anchor;
    }

    function setVerificationNode(address _node) external onlyRole(DEFAULT_ADMIN_ROLE) {
        address oldNode = verificationNode;
        verificationNode = _node;
        emit VerificationNodeUpdated(oldNode, _node);
    }

    function setYieldOracle(address _oracle) external onlyRole(DEFAULT_ADMIN_ROLE) {
        address oldOracle = yieldOracle;
        yieldOracle = _oracle;
        emit YieldOracleUpdated(oldOracle, _oracle);
    }

    function setComplianceHook(address _hook) external onlyRole(DEFAULT_ADMIN_ROLE) {
        address oldHook = address(complianceHook);
        complianceHook = IComplianceHookV1(_hook);
        emit ComplianceHookUpdated(oldHook, _hook);
    }

    function setWhitelistEnabled(bool enabled) external onlyRole(DEFAULT_ADMIN_ROLE) {
        whitelistEnabled = enabled;
    }

    function setWhitelisted(address account, bool status) external onlyRole(DEFAULT_ADMIN_ROLE) {
        whitelisted[account] = status;
    }

    function batchSetWhitelisted(address[] calldata accounts, bool status) external onlyRole(DEFAULT_ADMIN_ROLE) {
        for (uint256 i = 0; i < accounts.length; i++) {
            whitelisted[accounts[i]] = status;
        }
    }

    /// @dev The strategist may move the cap too.
    function setMaxTotalAssets(uint256 _maxTotalAssets) external {
        require(hasRole(DEFAULT_ADMIN_ROLE, msg.sender) || hasRole(STRATEGIST_ROLE, msg.sender), "Not authorized");
        maxTotalAssets = _maxTotalAssets;
    }

    function setCircuitBreakers(uint256 _maxDepositLimit, uint256 _maxWithdrawLimit, uint256 _minSolvencyThreshold)
        external
        onlyRole(DEFAULT_ADMIN_ROLE)
    {
        maxDepositLimit = _maxDepositLimit;
        maxWithdrawLimit = _maxWithdrawLimit;
        minSolvencyThreshold = _minSolvencyThreshold;
        emit CircuitBreakersUpdated(_maxDepositLimit, _maxWithdrawLimit, _minSolvencyThreshold);
    }

    function setWithdrawalCooldown(uint256 _cooldown) external onlyRole(DEFAULT_ADMIN_ROLE) {
        require(_cooldown <= 30 days, "Cooldown too long");
        uint256 old = withdrawalCooldown;
        withdrawalCooldown = _cooldown;
        emit WithdrawalCooldownUpdated(old, _cooldown);
    }

    // --- Withdrawal queue ---

    function requestWithdrawal(uint256 assets) external nonReentrant whenNotPaused returns (uint256) {
        uint256 shares = previewWithdraw(assets);
        require(shares > 0, "Zero shares");
        _transfer(msg.sender, address(this), shares);
        uint256 requestId = withdrawalRequests[msg.sender].length;
        uint256 unlockTimestamp = block.timestamp + withdrawalCooldown;
        withdrawalRequests[msg.sender].push(
            WithdrawalRequest({assets: assets, shares: shares, unlockTimestamp: unlockTimestamp, claimed: false})
        );
        emit WithdrawalRequested(msg.sender, requestId, assets, shares, unlockTimestamp);
        return requestId;
    }

    /// @dev Open while paused, so a matured request can always leave; pays the request-time amount.
    function claimWithdrawal(uint256 requestId) external nonReentrant {
        WithdrawalRequest storage request = withdrawalRequests[msg.sender][requestId];
        require(!request.claimed, "Already claimed");
        require(block.timestamp >= request.unlockTimestamp, "Cooldown not met");
        require(IERC20(asset()).balanceOf(address(this)) >= request.assets, "Insufficient liquid buffer");
        request.claimed = true;
        _burn(address(this), request.shares);
        SafeERC20.safeTransfer(IERC20(asset()), msg.sender, request.assets);
        _updateSolvency(true);
        emit WithdrawalClaimed(msg.sender, requestId, request.assets);
    }

    function getWithdrawalRequestCount(address user) external view returns (uint256) {
        return withdrawalRequests[user].length;
    }

    // --- ERC-4626 ---

    /// @dev Under a whitelist, a receiver that is not whitelisted needs the compliance hook's approval.
    function _receiverAdmitted(address receiver) private view returns (bool) {
        if (!whitelistEnabled || whitelisted[receiver]) return true;
        IComplianceHookV1 hook = complianceHook;
        return address(hook) != address(0) && hook.isCompliant(address(this), receiver);
    }

    function maxDeposit(address receiver) public view override returns (uint256) {
        if (paused()) return 0;
        if (!_receiverAdmitted(receiver)) return 0;
        uint256 assets = totalAssets();
        if (maxTotalAssets > 0) {
            return assets >= maxTotalAssets ? 0 : maxTotalAssets - assets;
        }
        return type(uint256).max;
    }

    function maxMint(address receiver) public view override returns (uint256) {
        if (paused()) return 0;
        if (!_receiverAdmitted(receiver)) return 0;
        uint256 assets = totalAssets();
        if (maxTotalAssets > 0) {
            if (assets >= maxTotalAssets) return 0;
            return convertToShares(maxTotalAssets - assets);
        }
        return type(uint256).max;
    }

    function deposit(uint256 assets, address receiver) public override whenNotPaused returns (uint256) {
        _checkDepositor(receiver);
        if (maxTotalAssets > 0) {
            require(totalAssets() + assets <= maxTotalAssets, "Vault cap exceeded");
        }
        if (maxDepositLimit > 0) {
            require(assets <= maxDepositLimit, "Deposit limit exceeded");
        }
        _updateSolvency(false);
        return super.deposit(assets, receiver);
    }

    function mint(uint256 shares, address receiver) public override whenNotPaused returns (uint256) {
        _checkDepositor(receiver);
        uint256 assets = previewMint(shares);
        if (maxTotalAssets > 0) {
            require(totalAssets() + assets <= maxTotalAssets, "Vault cap exceeded");
        }
        if (maxDepositLimit > 0) {
            require(assets <= maxDepositLimit, "Deposit limit exceeded");
        }
        _updateSolvency(false);
        return super.mint(shares, receiver);
    }

    /// @dev A strategist caller passes this check for any receiver (the hook is then not asked), but
    /// maxDeposit still refuses a receiver that is neither whitelisted nor approved by the hook.
    function _checkDepositor(address receiver) private view {
        if (whitelistEnabled) {
            bool isCompliant = whitelisted[receiver] || hasRole(STRATEGIST_ROLE, msg.sender);
            if (!isCompliant && address(complianceHook) != address(0)) {
                isCompliant = complianceHook.isCompliant(address(this), receiver);
            }
            require(isCompliant, "Not whitelisted or compliant");
        }
    }

    function withdraw(uint256, address, address) public override whenNotPaused returns (uint256) {
        revert("Use withdrawal queue");
    }

    function redeem(uint256, address, address) public override whenNotPaused returns (uint256) {
        revert("Use withdrawal queue");
    }
}
