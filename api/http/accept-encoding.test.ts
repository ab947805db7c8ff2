import { describe, expect, it } from "vitest";
import { negotiateEncoding } from "./accept-encoding.js";

describe("negotiateEncoding", () => {
  it.each([
    [undefined, null],
    ["", null],
    ["identity", null],
    ["gzip", "gzip"],
    ["x-gzip", "gzip"],
    ["gzip, deflate, br", "br"],
    ["gzip, deflate, br, zstd", "br"],
    ["br;q=0, gzip", "gzip"],
    ["br;q=0.5, gzip;q=0.8", "gzip"],
    ["BR;Q=1, GZIP;q=1", "br"],
    ["*", "br"],
    ["*;q=0.5, br;q=0", "gzip"],
    ["gzip;q=0, *;q=0", null],
    ["deflate", null],
  ])("%j → %j", (header, expected) => {
    expect(negotiateEncoding(header)).toBe(expected);
  });
});
