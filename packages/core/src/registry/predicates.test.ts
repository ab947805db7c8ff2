import { describe, expect, it } from "vitest";
import type { PublishedPredicate } from "./document-schema.js";
import { predicateFromPublished } from "./predicates.js";

const call: Omit<PublishedPredicate, "expect" | "expect_address" | "expect_contains_address"> = {
  kind: "eth_call",
  chain: "base",
  chain_id: 8453,
  to: "0x000000000000000000000000000000000000dEaD",
  data: "0x8da5cb5b",
  means: "the operator's Safe owns it",
  reproduction: "cast call 0x000000000000000000000000000000000000dEaD 'owner()(address)'",
};
const SAFE = "0x00000000000000000000000000000000000000aa";

describe("predicateFromPublished", () => {
  it("keeps the one expectation a published predicate names", () => {
    expect(predicateFromPublished({ ...call, expect_address: SAFE })).toEqual({ ...call, expect_address: SAFE });
    expect(predicateFromPublished({ ...call, expect: "0x01" })).toEqual({ ...call, expect: "0x01" });
    expect(predicateFromPublished({ ...call, expect_contains_address: SAFE })).toEqual({
      ...call,
      expect_contains_address: SAFE,
    });
  });

  it("is null for a predicate that names no expectation, never a guess", () => {
    expect(predicateFromPublished(call)).toBeNull();
  });
});
