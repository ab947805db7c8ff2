// The same sources as the real indexer (same chains, contracts, filters, block intervals).
export { default } from "../../ponder.config.js";
