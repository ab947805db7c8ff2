// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC20Burnable} from "@openzeppelin/contracts/token/ERC20/extensions/ERC20Burnable.sol";
import {ERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/ERC20Permit.sol";
import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";

/// @title kUSD
/// @notice The liability token as deployed (Base 0x5C2EfdF0…0AA3): ERC-20 with permit and plain
/// OpenZeppelin `ERC20Burnable` (anyone burns their own balance; `burnFrom` needs only an
/// allowance, no role), minted only by MINTER_ROLE holders. The constructor grants the admin
/// both DEFAULT_ADMIN_ROLE and MINTER_ROLE: who may mint is the RoleGranted/RoleRevoked history.
contract KUSD is ERC20, ERC20Burnable, ERC20Permit, AccessControl {
    bytes32 public constant MINTER_ROLE = keccak256("MINTER_ROLE");

    constructor(address defaultAdmin) ERC20("Kerne Synthetic Dollar", "kUSD") ERC20Permit("Kerne Synthetic Dollar") {
        _grantRole(DEFAULT_ADMIN_ROLE, defaultAdmin);
        _grantRole(MINTER_ROLE, defaultAdmin);
    }

    function mint(address to, uint256 amount) external onlyRole(MINTER_ROLE) {
        _mint(to, amount);
    }
}
