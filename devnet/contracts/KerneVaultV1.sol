// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC4626} from "@openzeppelin/contracts/token/ERC20/extensions/ERC4626.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";
import {Pausable} from "@openzeppelin/contracts/utils/Pausable.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/utils/ReentrancyGuard.sol";

/// @title KerneVaultV1
/// @notice Devnet stand-in for the retired KerneVault v1 on Base, 0x8005bc7A...F2AC (verified source =
/// operator commit 50cb6b0, solc 0.8.24 viaIR). Written from that source so the devnet's events, views
/// and reverts are the ones an indexer meets on Base. v1 predates the hardening of v2 and keeps its
/// quirks on purpose: `totalAssets` is the raw token balance plus the strategist-written buckets,
/// which are written without cooldown or change limit; reverts are strings, not custom errors; the
/// deployer also receives DEFAULT_ADMIN_ROLE; `getSolvencyRatio` divides by the raw 21-decimal share
/// supply; `transferToPrime` lets any caller name itself as the prime account; withdrawal claims pay
/// the amount recorded at request time; and `emergencyExit` is a user exit with a 5% fee, not an
/// admin drain. There is no deposit fee and no genesis phase.
///
/// Left out, because with the deployed configuration they never change a result of the paths above
/// and no devnet script uses them: the ERC-3156 flash lender, `initialize` for white-label clones,
/// founder-wealth capture and insurance-fund draws, the compliance hook, the verification node, the
/// trust anchor, the yield oracle and projected APY, and the batch whitelist/prime setters.
contract KerneVaultV1 is ERC4626, AccessControl, ReentrancyGuard, Pausable {
    bytes32 public constant STRATEGIST_ROLE = keccak256("STRATEGIST_ROLE");
    bytes32 public constant PAUSER_ROLE = keccak256("PAUSER_ROLE");

    uint256 public constant GRACE_PERIOD = 4 hours;

    address public immutable exchangeDepositAddress;

    uint256 public offChainAssets;
    uint256 public l1Assets;
    uint256 public hedgingReserve;
    address public l1DepositAddress;
    address public founder;
    address public treasury;
    address public insuranceFund;

    uint256 public lastReportedTimestamp;

    bool public whitelistEnabled;
    mapping(address => bool) public whitelisted;

    uint256 public maxTotalAssets;
    uint256 public maxDepositLimit;
    uint256 public maxWithdrawLimit;
    uint256 public minSolvencyThreshold;
    uint256 public insolventSince;

    uint256 public withdrawalCooldown = 7 days;

    struct WithdrawalRequest {
        uint256 assets;
        uint256 shares;
        uint256 unlockTimestamp;
        bool claimed;
    }

    mapping(address => WithdrawalRequest[]) public withdrawalRequests;

    struct PrimeInfo {
        bool active;
    }

    mapping(address => PrimeInfo) public primeAccounts;

    event OffChainAssetsUpdated(uint256 oldAmount, uint256 newAmount, uint256 timestamp);
    event FundsSwept(uint256 amount, address destination);
    event HedgingReserveUpdated(uint256 oldAmount, uint256 newAmount, uint256 timestamp);
    event CircuitBreakersUpdated(uint256 maxDeposit, uint256 maxWithdraw, uint256 minSolvency);
    event WithdrawalRequested(
        address indexed user, uint256 requestId, uint256 assets, uint256 shares, uint256 unlockTimestamp
    );
    event WithdrawalClaimed(address indexed user, uint256 requestId, uint256 assets);
    event WithdrawalCooldownUpdated(uint256 oldCooldown, uint256 newCooldown);
    event L1AssetsUpdated(uint256 oldAmount, uint256 newAmount, uint256 timestamp);
    event L1DepositRequested(uint256 amount, address bridge);

    constructor(
        IERC20 asset_,
        string memory name_,
        string memory symbol_,
        address admin_,
        address strategist_,
        address exchangeDepositAddress_
    ) ERC4626(asset_) ERC20(name_, symbol_) {
        exchangeDepositAddress = exchangeDepositAddress_;
        require(admin_ != address(0), "Admin cannot be zero address");
        _grantRole(DEFAULT_ADMIN_ROLE, admin_);
        // The deployed constructor also makes its deployer an admin.
        _grantRole(DEFAULT_ADMIN_ROLE, msg.sender);
        _grantRole(STRATEGIST_ROLE, strategist_);
        _grantRole(PAUSER_ROLE, admin_);
        _grantRole(PAUSER_ROLE, strategist_);
    }

    function _decimalsOffset() internal pure override returns (uint8) {
        return 3;
    }

    function getExchangeDepositAddress() public view returns (address) {
        return exchangeDepositAddress;
    }

    function totalAssets() public view override returns (uint256) {
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

    /// @dev Below `minSolvencyThreshold` for longer than the grace period, the vault pauses itself;
    /// strict callers revert instead.
    function _updateSolvency(bool strict) internal {
        bool currentlySolvent = true;
        if (minSolvencyThreshold > 0 && totalSupply() > 1000) {
            if (getSolvencyRatio() < minSolvencyThreshold) currentlySolvent = false;
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

    function setTreasury(address _treasury) external onlyRole(DEFAULT_ADMIN_ROLE) {
        treasury = _treasury;
    }

    function setInsuranceFund(address _insuranceFund) external onlyRole(DEFAULT_ADMIN_ROLE) {
        insuranceFund = _insuranceFund;
    }

    function setWhitelistEnabled(bool enabled) external onlyRole(DEFAULT_ADMIN_ROLE) {
        whitelistEnabled = enabled;
    }

    function setWhitelisted(address account, bool status) external onlyRole(DEFAULT_ADMIN_ROLE) {
        whitelisted[account] = status;
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

    function maxDeposit(address receiver) public view override returns (uint256) {
        if (paused()) return 0;
        if (whitelistEnabled && !whitelisted[receiver]) return 0;
        uint256 assets = totalAssets();
        if (maxTotalAssets > 0) {
            return assets >= maxTotalAssets ? 0 : maxTotalAssets - assets;
        }
        return type(uint256).max;
    }

    function maxMint(address receiver) public view override returns (uint256) {
        if (paused()) return 0;
        if (whitelistEnabled && !whitelisted[receiver]) return 0;
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

    /// @dev A strategist caller passes this check for any receiver, but maxDeposit still refuses a
    /// receiver that is not whitelisted.
    function _checkDepositor(address receiver) private view {
        if (whitelistEnabled) {
            require(whitelisted[receiver] || hasRole(STRATEGIST_ROLE, msg.sender), "Not whitelisted or compliant");
        }
    }

    function withdraw(uint256, address, address) public override whenNotPaused returns (uint256) {
        revert("Use withdrawal queue");
    }

    function redeem(uint256, address, address) public override whenNotPaused returns (uint256) {
        revert("Use withdrawal queue");
    }
}
