import { sha256, stringToBytes } from "viem";
import { describe, expect, it } from "vitest";
import { networkDocumentDigest } from "./document-digest.js";

describe("networkDocumentDigest", () => {
  it("is SHA-256 of the keys-sorted compact JSON, whatever the key order", () => {
    const a = networkDocumentDigest({ chainId: 8453, contracts: { kUSD: { address: "0x1" } } });
    const b = networkDocumentDigest({ contracts: { kUSD: { address: "0x1" } }, chainId: 8453 });
    expect(a).toBe(b);
    expect(a).toBe(sha256(stringToBytes('{"chainId":8453,"contracts":{"kUSD":{"address":"0x1"}}}')));
  });

  it("changes with any address", () => {
    expect(networkDocumentDigest({ a: "0x1" })).not.toBe(networkDocumentDigest({ a: "0x2" }));
  });
});
