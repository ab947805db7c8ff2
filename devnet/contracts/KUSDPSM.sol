// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {KUSDPSMV3} from "./KUSDPSMV3.sol";

/// @title KUSDPSM
/// @notice The live mint PSM (Base 0xaBDE1138…9803, deployed 2026-07-10): the v3 PSM plus the
/// redeem-burn fix (KRN-26-PSM-REDEEM-NO-BURN). While `mintingEnabled`, a redemption burns the
/// whole kUSD amount it pulled in (a `Transfer` to the zero address from this PSM), so supply
/// falls; with minting off it keeps the kUSD as inventory, as v3 always does.
contract KUSDPSM is KUSDPSMV3 {
    error KusdBurnFailed();

    constructor(address kusd, address admin) KUSDPSMV3(kusd, admin) {}

    function _afterRedeemPulled(uint256 amount) internal override {
        if (!mintingEnabled) return;
        (bool burned,) = address(kUSD).call(abi.encodeWithSignature("burn(uint256)", amount));
        if (!burned) revert KusdBurnFailed();
    }
}
