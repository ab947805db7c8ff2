/** The JSON-RPC transport every part of the process uses, each call counted by what it was for. */

/** The readers' budget of calls, apart from the service's own, and the requests it refuses. */
export * from "./reader-budget.js";
export * from "./reader-scope.js";
export * from "./rpc-calls.js";
export { TokenBucket } from "./token-bucket.js";
