// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";

/// @title KerneTreasury
/// @notice Protocol treasury with the deployed treasury's interface: a fee sink owned by the
/// admin multisig. Buyback routing is out of scope for the devnet; moving funds out is
/// `emergencyWithdraw`, which the reports classify by where the funds go.
contract KerneTreasury is Ownable {
    using SafeERC20 for IERC20;

    address public kerneToken;
    address public stakingContract;
    address public aerodromeRouter;

    event FeeReceived(address indexed token, uint256 amount, address indexed from);

    error ZeroAmount();

    constructor(address _kerneToken, address _stakingContract, address _aerodromeRouter) Ownable(msg.sender) {
        kerneToken = _kerneToken;
        stakingContract = _stakingContract;
        aerodromeRouter = _aerodromeRouter;
    }

    function receiveFees(address token, uint256 amount) external {
        if (amount == 0) revert ZeroAmount();
        IERC20(token).safeTransferFrom(msg.sender, address(this), amount);
        emit FeeReceived(token, amount, msg.sender);
    }

    function emergencyWithdraw(address token, uint256 amount, address recipient) external onlyOwner {
        IERC20(token).safeTransfer(recipient, amount);
    }
}
