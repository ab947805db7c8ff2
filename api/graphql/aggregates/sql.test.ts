import { MAX_BUCKETS } from "@kusd/core";
import type { GraphQLError } from "graphql";
import { describe, expect, it } from "vitest";
import { withinBucketLimit } from "./sql.js";

describe("the bucket limit", () => {
  it("passes up to the limit and refuses more with BAD_USER_INPUT naming it", () => {
    expect(withinBucketLimit([1, 2, 3], 3)).toEqual([1, 2, 3]);
    let caught: unknown;
    try {
      withinBucketLimit([1, 2, 3, 4], 3);
    } catch (e) {
      caught = e;
    }
    // By name, not instanceof: graphql may be loaded as two builds (ESM and CJS) under vitest.
    const e = caught as GraphQLError;
    expect(e.name).toBe("GraphQLError");
    expect(e.message).toMatch(/more than 3 buckets \(the MAX_BUCKETS limit\)/);
    expect(e.extensions).toMatchObject({ code: "BAD_USER_INPUT", limit: "MAX_BUCKETS", max: 3 });
  });

  it("defaults to MAX_BUCKETS", () => {
    expect(MAX_BUCKETS).toBe(5_000);
    expect(() => withinBucketLimit(new Array(MAX_BUCKETS + 1).fill(0))).toThrow(/more than 5000 buckets/);
  });
});
