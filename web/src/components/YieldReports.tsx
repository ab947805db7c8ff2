/** The yield section's parts, one chunk loaded when the section comes near the screen. */
export { HedgeLedgerTable } from "./HedgeLedgerTable.js";
export { YieldHeadline } from "./YieldHeadline.js";
