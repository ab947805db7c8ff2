// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title SystemConfig
/// @notice The two reads Base's AnchorStateRegistry makes of SystemConfig: who the guardian is (the
/// only account that may blacklist a game, retire games or change the respected game type) and
/// whether the system is paused. On Base the guardian comes from SuperchainConfig behind the
/// proxy at 0x73a7…4072; here it is fixed at construction and the system is never paused.
contract SystemConfig {
    address internal immutable GUARDIAN;
    /// @dev No devnet account pauses the system; the flag is kept in state as Base keeps its own.
    bool internal systemPaused;

    constructor(address guardian_) {
        GUARDIAN = guardian_;
    }

    function guardian() external view returns (address) {
        return GUARDIAN;
    }

    function paused() external view returns (bool) {
        return systemPaused;
    }
}
