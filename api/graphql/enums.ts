/**
 * The GraphQL enums that entity columns take their values from: a spec names one by
 * `enumType`, and its filter fields use it, so `psmKey_in: [psmMint]` is checked by GraphQL itself.
 */
import { builder } from "./builder.js";
import { PSM_KEYS, SWAP_DIRECTIONS, VAULT_KEYS } from "./specs/columns.js";

export const PsmKeyEnum = builder.enumType("PsmKey", { values: PSM_KEYS });
export const SwapDirection = builder.enumType("SwapDirection", { values: SWAP_DIRECTIONS });
export const VaultKey = builder.enumType("VaultKey", { values: VAULT_KEYS });

export const ENUM_TYPES = { PsmKey: PsmKeyEnum, SwapDirection, VaultKey } as const;
