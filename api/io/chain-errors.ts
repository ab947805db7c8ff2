/**
 * Whether an error means the chain RPC did not answer (HTTP failure, timeout, closed socket, a
 * provider's rate limit), as opposed to a contract reverting or a bad request. Reads that a report
 * tolerates are already null with `failedReads`; this is for the reads a report cannot do without
 * (the block itself), which then answer 503 chain_read_failed instead of a 500.
 */
import {
  BaseError,
  ContractFunctionRevertedError,
  ExecutionRevertedError,
  HttpRequestError,
  InternalRpcError,
  LimitExceededRpcError,
  ResourceUnavailableRpcError,
  RpcRequestError,
  SocketClosedError,
  TimeoutError,
} from "viem";

// A batched request that fails over HTTP reaches us as RpcRequestError/InternalRpcError, not HttpRequestError.
const UNAVAILABLE = [
  HttpRequestError,
  TimeoutError,
  SocketClosedError,
  LimitExceededRpcError,
  ResourceUnavailableRpcError,
  InternalRpcError,
  RpcRequestError,
];
const REVERTED = [ContractFunctionRevertedError, ExecutionRevertedError];

export function isChainUnavailable(error: unknown): boolean {
  if (!(error instanceof BaseError)) return false;
  if (error.walk((e) => REVERTED.some((kind) => e instanceof kind))) return false;
  return !!error.walk((e) => UNAVAILABLE.some((kind) => e instanceof kind));
}

/** Seconds a client should wait before retrying while the chain RPC does not answer. */
export const CHAIN_RETRY_AFTER_SECONDS = 5;
