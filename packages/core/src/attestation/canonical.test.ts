import { describe, expect, it } from "vitest";
import { attestationHash, CanonicalJsonError, canonicalJson } from "./canonical.js";

describe("canonicalJson", () => {
  it("sorts keys at every depth and writes no whitespace", () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: 2 }], c: "x" } })).toBe(
      '{"a":{"c":"x","d":[2,{"y":2,"z":1}]},"b":1}',
    );
  });
  it("refuses bigint and non-finite numbers instead of guessing", () => {
    expect(() => canonicalJson({ a: 1n })).toThrow(CanonicalJsonError);
    expect(() => canonicalJson({ a: Number.NaN })).toThrow(CanonicalJsonError);
  });
  it("hashes the bytes it is given: SHA-256 of the UTF-8 string, 0x-prefixed", () => {
    // sha256("{}") computed independently: printf '{}' | sha256sum
    expect(attestationHash("{}")).toBe("0x44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a");
  });
});
