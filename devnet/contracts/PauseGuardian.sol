// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title PauseGuardian
/// @notice The emergency stop outside the timelock's delay (Base 0xC47adaf5…Cc8E): it holds
/// MANAGER_ROLE on the three PSMs and can make exactly one call, `pause()` on one of them, and
/// only when the Safe asks. No unpause (that waits for the timelock), no role changes.
contract PauseGuardian {
    address public immutable safe;
    address public immutable module0;
    address public immutable module1;
    address public immutable module2;

    error NotSafe();
    error UnknownModule(address module);
    error PauseFailed(address module);

    constructor(address safe_, address[3] memory modules) {
        safe = safe_;
        module0 = modules[0];
        module1 = modules[1];
        module2 = modules[2];
    }

    function pause(address module) external {
        if (msg.sender != safe) revert NotSafe();
        if (module != module0 && module != module1 && module != module2) revert UnknownModule(module);
        (bool ok,) = module.call(abi.encodeWithSignature("pause()"));
        if (!ok) revert PauseFailed(module);
    }
}
