import { describe, expect, it } from "vitest";
import { checkKey, checkStatement, checkTimestamp, normaliseHex } from "./checks.js";
import { OperatorStoreError } from "./operation.js";
import type { NewStatement } from "./records.js";

const row: NewStatement = {
  attestationHash: `0x${"AB".repeat(32)}`,
  signer: "0x5F4eC3Df9cbd43714FE2740f5E3616155c5b8419",
  timestamp: 1_780_000_000,
  blockNumber: 30_000_000n,
  chainId: 8453,
  status: "healthy",
  artifact: "{}",
};

describe("checkStatement", () => {
  it("keeps a well-formed row, its attestation hash lower-cased, and nothing else", () => {
    expect(checkStatement({ ...row, extra: 1 } as NewStatement)).toEqual({
      ...row,
      attestationHash: `0x${"ab".repeat(32)}`,
    });
  });

  it("refuses every malformed field with OperatorStoreError naming it", () => {
    const cases: [Partial<NewStatement> | Record<string, unknown>, RegExp][] = [
      [{ attestationHash: "0x1234" }, /attestationHash must be 0x \+ 64 hex/],
      [{ signer: "" }, /signer must be a non-empty string/],
      [{ timestamp: -1 }, /timestamp must be a non-negative integer/],
      [{ timestamp: 1.5 }, /timestamp must be a non-negative integer/],
      [{ blockNumber: 1 }, /blockNumber must be a non-negative int8 bigint/],
      [{ blockNumber: 2n ** 63n }, /blockNumber must be a non-negative int8 bigint/],
      [{ chainId: 0 }, /chainId must be a positive int4/],
      [{ chainId: 2 ** 31 }, /chainId must be a positive int4/],
      [{ status: "" }, /status must be a non-empty string/],
      [{ artifact: "" }, /artifact must be a non-empty string/],
    ];
    for (const [change, message] of cases) {
      const bad = { ...row, ...change } as NewStatement;
      expect(
        () => checkStatement(bad),
        JSON.stringify(change, (_, v) => (typeof v === "bigint" ? String(v) : v)),
      ).toThrow(message);
      expect(() => checkStatement(bad)).toThrow(OperatorStoreError);
    }
    expect(checkStatement({ ...row, blockNumber: 2n ** 63n - 1n }).blockNumber).toBe(2n ** 63n - 1n);
  });
});

describe("checkTimestamp", () => {
  it("passes unix seconds through and names the parameter it refuses", () => {
    expect(checkTimestamp(0, "before")).toBe(0);
    expect(checkTimestamp(1_780_000_000, "before")).toBe(1_780_000_000);
    for (const bad of [-1, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 1]) {
      expect(() => checkTimestamp(bad, "before")).toThrow("before must be a non-negative integer (unix seconds)");
    }
  });
});

describe("payment keys", () => {
  it("lower-cases hex payers and nonces, so checksum casing is not a second key", () => {
    expect(checkKey({ network: "eip155:8453", payer: "0xAbCd", nonce: `0x${"FF".repeat(32)}` })).toEqual({
      network: "eip155:8453",
      payer: "0xabcd",
      nonce: `0x${"ff".repeat(32)}`,
    });
  });

  it("keeps non-hex values (base58 keys) as given, and the network always", () => {
    expect(
      checkKey({ network: "Solana:Main", payer: "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin", nonce: "AbC" }),
    ).toEqual({ network: "Solana:Main", payer: "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin", nonce: "AbC" });
    expect(normaliseHex("0xABC")).toBe("0xabc");
    expect(normaliseHex("0XABC")).toBe("0XABC");
    expect(normaliseHex("ABC")).toBe("ABC");
  });

  it("refuses an empty or missing field", () => {
    expect(() => checkKey({ network: "", payer: "0x1", nonce: "0x2" })).toThrow(
      "payment network must be a non-empty string",
    );
    expect(() => checkKey({ network: "n", payer: "0x1" } as never)).toThrow("payment nonce must be a non-empty string");
    expect(() => checkKey(undefined as never)).toThrow(OperatorStoreError);
  });
});
