// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";

/// @title RatedLST
/// @notice A liquid-staking token whose exchange rate (underlying ETH per token, 18 decimals)
/// is pushed by an oracle, as the bridged LSTs on Base receive it. The rate may only grow and
/// by at most `MAX_STEP_BPS` per report, so a staking-yield reader sees a plausible series.
contract RatedLST is ERC20, AccessControl {
    bytes32 public constant ORACLE_ROLE = keccak256("ORACLE_ROLE");
    uint256 public constant MAX_STEP_BPS = 10; // 0.1% per report, ~36% a year if reported daily

    uint256 public exchangeRate;
    uint256 public lastUpdated;

    event ExchangeRateUpdated(uint256 oldRate, uint256 newRate, uint256 timestamp);

    error RateDecrease(uint256 current, uint256 proposed);
    error RateStepTooLarge(uint256 current, uint256 proposed);

    constructor(string memory name_, string memory symbol_, address admin, uint256 initialRate)
        ERC20(name_, symbol_)
    {
        _grantRole(DEFAULT_ADMIN_ROLE, admin);
        _grantRole(ORACLE_ROLE, admin);
        exchangeRate = initialRate;
        lastUpdated = block.timestamp;
        emit ExchangeRateUpdated(0, initialRate, block.timestamp);
    }

    /// @notice wstETH's name for the rate.
    function stEthPerToken() external view returns (uint256) {
        return exchangeRate;
    }

    /// @notice The rate-provider name (Balancer/Aerodrome style) for the same number.
    function getRate() external view returns (uint256) {
        return exchangeRate;
    }

    function updateExchangeRate(uint256 newRate) external onlyRole(ORACLE_ROLE) {
        uint256 old = exchangeRate;
        if (newRate < old) revert RateDecrease(old, newRate);
        if ((newRate - old) * 10_000 > old * MAX_STEP_BPS) revert RateStepTooLarge(old, newRate);
        exchangeRate = newRate;
        lastUpdated = block.timestamp;
        emit ExchangeRateUpdated(old, newRate, block.timestamp);
    }

    /// @notice Devnet faucet standing in for the bridge.
    function mint(address to, uint256 amount) external onlyRole(DEFAULT_ADMIN_ROLE) {
        _mint(to, amount);
    }
}
