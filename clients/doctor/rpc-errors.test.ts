import {
  ContractFunctionExecutionError,
  ContractFunctionRevertedError,
  HttpRequestError,
  parseAbi,
  RpcRequestError,
  TimeoutError,
} from "viem";
import { describe, expect, it } from "vitest";
import {
  classifyRpcError,
  isRevert,
  oneLine,
  RpcUnreachableError,
  rethrowUnreachable,
  unreachable,
} from "./rpc-errors.js";

const rpcError = (message: string, code = -32000) =>
  new RpcRequestError({ body: {}, error: { code, message }, url: "http://x" });
const abi = parseAbi(["function totalSupply() view returns (uint256)"]);
const reverted = new ContractFunctionRevertedError({ abi, functionName: "totalSupply", message: "not allowed" });

describe("classifyRpcError", () => {
  it("tells pruned state and unreachable RPCs from other refusals", () => {
    expect(classifyRpcError(rpcError("missing trie node 5f3c (path ) <nil>"))).toBe("archive");
    expect(classifyRpcError(rpcError("header not found"))).toBe("archive");
    expect(classifyRpcError(new Error("wrapped", { cause: rpcError("historical state 0xab is not available") }))).toBe(
      "archive",
    );
    expect(classifyRpcError(new HttpRequestError({ url: "http://x", details: "fetch failed" }))).toBe("unreachable");
    expect(classifyRpcError(new HttpRequestError({ url: "http://x", status: 429 }))).toBe("unreachable");
    expect(classifyRpcError(new TimeoutError({ body: {}, url: "http://x" }))).toBe("unreachable");
    expect(classifyRpcError(rpcError("execution reverted", 3))).toBe("other");
    expect(
      classifyRpcError(new HttpRequestError({ url: "http://x", status: 400, details: "block range too large" })),
    ).toBe("other");
  });
});

describe("oneLine", () => {
  it("shows viem's headline and the node's reason, never the URL", () => {
    const refused = new RpcRequestError({
      body: {},
      error: { code: -32602, message: "query exceeds max block range 500" },
      url: "https://rpc.example/v2/SECRET",
    });
    expect(oneLine(refused)).toBe("RPC Request failed. (query exceeds max block range 500)");
    expect(
      oneLine(
        new HttpRequestError({ url: "https://rpc.example/v2/SECRET", status: 429, details: "Too Many Requests" }),
      ),
    ).toBe("HTTP request failed. (Too Many Requests)");
  });

  it("names a revert by its reason, however deeply wrapped", () => {
    expect(oneLine(reverted)).toBe("reverted: not allowed");
    expect(
      oneLine(
        new ContractFunctionExecutionError(reverted, {
          abi,
          functionName: "totalSupply",
          contractAddress: "0x0000000000000000000000000000000000000001",
        }),
      ),
    ).toBe("reverted: not allowed");
  });

  it("folds whitespace and cuts at 240 characters", () => {
    expect(oneLine(new Error("a\n  b\tc"))).toBe("a b c");
    expect(oneLine(42)).toBe("42");
    const long = oneLine("x".repeat(300));
    expect(long).toHaveLength(240);
    expect(long.endsWith("...")).toBe(true);
  });
});

describe("a revert, an unreachable RPC", () => {
  it("counts only viem's revert errors as a revert", () => {
    expect(isRevert(reverted)).toBe(true);
    expect(isRevert(rpcError("execution reverted", 3))).toBe(true);
    expect(isRevert(new Error("execution reverted"))).toBe(false);
    expect(isRevert(rpcError("header not found"))).toBe(false);
  });

  it("ends the run on an unreachable RPC, and reports any other refusal as one line", () => {
    const down = new HttpRequestError({ url: "http://x", details: "fetch failed" });
    expect(() => rethrowUnreachable(down)).toThrow(down);
    expect(rethrowUnreachable(reverted)).toBe("reverted: not allowed");
    const error = unreachable(down, "archive state");
    expect(error).toBeInstanceOf(RpcUnreachableError);
    expect(error.code).toBe("rpc_unreachable");
    expect(error.details).toEqual({ chain: "base", cause: down });
    expect(error.message).toBe(
      "the base RPC stopped answering during the archive state check: HTTP request failed. (fetch failed)",
    );
  });
});
