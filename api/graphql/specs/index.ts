/**
 * Every entity the API lists, in one place: GraphQL registers a connection for each and the
 * exports serve each under its connection's name. A spec's `source` is what answers "as of a
 * block": replace it (here) to serve an entity from another table or an as-of-block subquery.
 */
import type { EntitySpec } from "../query/entity.js";
import { roleEventSpec, roleHolderSpec } from "./roles.js";
import { psmReserveMovementSpec, psmSwapSpec } from "./swaps.js";
import { registryTransferSpec, tokenBalanceSpec, violationSpec } from "./transfers.js";
import { shareBalanceSpec, sharePriceSpec, vaultEventSpec } from "./vaults.js";

export const ENTITY_SPECS: readonly EntitySpec[] = [
  psmSwapSpec,
  psmReserveMovementSpec,
  vaultEventSpec,
  sharePriceSpec,
  shareBalanceSpec,
  roleEventSpec,
  roleHolderSpec,
  registryTransferSpec,
  tokenBalanceSpec,
  violationSpec,
];

export {
  psmReserveMovementSpec,
  psmSwapSpec,
  registryTransferSpec,
  roleEventSpec,
  roleHolderSpec,
  shareBalanceSpec,
  sharePriceSpec,
  tokenBalanceSpec,
  vaultEventSpec,
  violationSpec,
};
