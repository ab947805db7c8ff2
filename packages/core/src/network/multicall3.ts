/**
 * Multicall3 (github.com/mds1/multicall3): one contract that makes many calls in one `eth_call`,
 * at the same address on every chain it is deployed on. On Base it has code since block 5,022
 * (viem's `base` chain definition, `contracts.multicall3.blockCreated`), long before the protocol.
 */
export const MULTICALL3_ADDRESS = "0xcA11bde05977b3631167028862bE2a173976CA11" as const;
