/**
 * kusd-buy as a library (the package's `exports`): `buy()` pays for one artifact within a spend
 * limit and verifies it, `payingFetch` is the x402 fetch it pays with, `runBuy` the command line.
 */
export { BUY_USAGE, runBuy } from "./buy.js";
export {
  type BuyOptions,
  buy,
  type Purchase,
  PurchaseError,
  type PurchaseErrorDetails,
  payingFetch,
  type SpendLimit,
} from "./client.js";
