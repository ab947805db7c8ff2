/**
 * The Ethereum Attestation Service where Base has it: OP-stack predeploys, in every Base block
 * since genesis, so a statement is anchored with no contract of ours. The devnet runs the
 * published package's own contracts at the same addresses (devnet/eas.ts).
 */
import type { Address } from "viem";

export const EAS_ADDRESS: Address = "0x4200000000000000000000000000000000000021";
export const SCHEMA_REGISTRY_ADDRESS: Address = "0x4200000000000000000000000000000000000020";
export { easAbi, schemaRegistryAbi } from "./eas-abi.js";
