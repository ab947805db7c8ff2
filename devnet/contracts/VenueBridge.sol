// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";

/// @title VenueBridge
/// @notice The derivatives venue's deposit contract. Like Hyperliquid's bridge it credits the
/// sender's venue account for a plain USDC transfer (or `deposit`), and only the venue can pay
/// out. The operator does not control it: funds sent here are margin on a venue whose per-address
/// state is public, which is why a registry discloses it rather than listing it as an account.
contract VenueBridge {
    using SafeERC20 for IERC20;

    address public immutable usdc;
    address public immutable venueOperator;

    event Deposit(address indexed user, uint256 amount);
    event Withdrawal(address indexed user, uint256 amount);

    error NotVenueOperator();

    constructor(address usdc_, address venueOperator_) {
        usdc = usdc_;
        venueOperator = venueOperator_;
    }

    function deposit(uint256 amount) external {
        IERC20(usdc).safeTransferFrom(msg.sender, address(this), amount);
        emit Deposit(msg.sender, amount);
    }

    function withdraw(address user, uint256 amount) external {
        if (msg.sender != venueOperator) revert NotVenueOperator();
        IERC20(usdc).safeTransfer(user, amount);
        emit Withdrawal(user, amount);
    }
}
