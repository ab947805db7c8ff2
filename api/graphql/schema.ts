/** The GraphQL schema: every module registers its types on the shared builder. */
import { builder } from "./builder.js";
import "./entities/swaps.js";
import "./entities/vaults.js";
import "./entities/roles.js";
import "./entities/transfers.js";
import "./violations.js";
import "./aggregates.js";
import "./reports.js";
import "./history.js";
import "./psm-parameters.js";
import "./subscriptions.js";
import "./live/subscriptions.js";

export const schema = builder.toSchema();
