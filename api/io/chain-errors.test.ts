import {
  ContractFunctionRevertedError,
  encodeErrorResult,
  HttpRequestError,
  InternalRpcError,
  parseAbi,
  RpcRequestError,
  TimeoutError,
} from "viem";
import { describe, expect, it } from "vitest";
import { isChainUnavailable } from "./chain-errors.js";

describe("isChainUnavailable", () => {
  it("an RPC that fails over HTTP or times out is unavailable", () => {
    expect(isChainUnavailable(new HttpRequestError({ url: "http://rpc", status: 500 }))).toBe(true);
    expect(isChainUnavailable(new TimeoutError({ body: {}, url: "http://rpc" }))).toBe(true);
    // A batch answered HTTP 500 surfaces as the JSON-RPC internal error.
    expect(
      isChainUnavailable(
        new InternalRpcError(
          new RpcRequestError({ body: {}, url: "http://rpc", error: { code: -32603, message: "injected fault" } }),
        ),
      ),
    ).toBe(true);
  });
  it("a contract that reverts, or anything that is not viem's, is not", () => {
    const abi = parseAbi(["error Nope()"]);
    expect(
      isChainUnavailable(
        new ContractFunctionRevertedError({
          abi,
          data: encodeErrorResult({ abi, errorName: "Nope" }),
          functionName: "f",
        }),
      ),
    ).toBe(false);
    expect(isChainUnavailable(new Error("fetch failed"))).toBe(false);
  });
});
