// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";

/// @title KerneInsuranceFund
/// @notice Backstop fund with the deployed insurance fund's interface: it holds its `asset`
/// (and any other token sent to it) and pays claims only to authorised callers.
contract KerneInsuranceFund is AccessControl {
    using SafeERC20 for IERC20;

    bytes32 public constant AUTHORIZED_ROLE = keccak256("AUTHORIZED_ROLE");
    bytes32 public constant MANAGER_ROLE = keccak256("MANAGER_ROLE");

    address public immutable asset;
    uint256 public totalCovered;

    event FundsDeposited(uint256 amount);
    event CoverageClaimed(address indexed recipient, uint256 amount);

    constructor(address _asset, address _admin) {
        asset = _asset;
        _grantRole(DEFAULT_ADMIN_ROLE, _admin);
        _grantRole(MANAGER_ROLE, _admin);
    }

    function getBalance() external view returns (uint256) {
        return IERC20(asset).balanceOf(address(this));
    }

    function deposit(uint256 amount) external {
        IERC20(asset).safeTransferFrom(msg.sender, address(this), amount);
        emit FundsDeposited(amount);
    }

    function claim(address recipient, uint256 amount) external onlyRole(AUTHORIZED_ROLE) {
        totalCovered += amount;
        IERC20(asset).safeTransfer(recipient, amount);
        emit CoverageClaimed(recipient, amount);
    }
}
