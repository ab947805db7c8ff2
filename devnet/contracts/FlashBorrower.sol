// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IERC3156FlashBorrower} from "@openzeppelin/contracts/interfaces/IERC3156FlashBorrower.sol";

interface IFlashLender {
    function flashLoan(address receiver, address token, uint256 amount, bytes calldata data) external returns (bool);
}

/// @title FlashBorrower
/// @notice A permissionless ERC-3156 borrower (an arbitrageur's contract). `repay` decides
/// whether it approves the lender to pull the loan back, so the devnet can show both a repaid
/// loan and one the lender refuses.
contract FlashBorrower is IERC3156FlashBorrower {
    bytes32 private constant CALLBACK_SUCCESS = keccak256("ERC3156FlashBorrower.onFlashLoan");

    event Borrowed(address indexed lender, address indexed token, uint256 amount, uint256 fee);

    function borrow(address lender, address token, uint256 amount, bool repay) external {
        IFlashLender(lender).flashLoan(address(this), token, amount, abi.encode(repay));
    }

    function onFlashLoan(address, address token, uint256 amount, uint256 fee, bytes calldata data)
        external
        returns (bytes32)
    {
        bool repay = abi.decode(data, (bool));
        if (repay) IERC20(token).approve(msg.sender, amount + fee);
        emit Borrowed(msg.sender, token, amount, fee);
        return CALLBACK_SUCCESS;
    }
}
