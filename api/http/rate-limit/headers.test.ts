import { parseList } from "structured-headers";
import { describe, expect, it } from "vitest";
import { limitHeader, policyHeader, resetSeconds } from "./headers.js";

describe("the RateLimit fields (draft-ietf-httpapi-ratelimit-headers-11)", () => {
  it("RateLimit-Policy is a List of one String item with the integer q and w", () => {
    const field = policyHeader({ points: 1200, windowSeconds: 60 });
    // The draft's own example form: RateLimit-Policy: "default";q=100;w=10
    expect(field).toBe('"free";q=1200;w=60');
    const [[name, params]] = parseList(field) as [[string, Map<string, unknown>]];
    expect(name).toBe("free");
    expect(Object.fromEntries(params)).toEqual({ q: 1200, w: 60 });
  });

  it("RateLimit names the same policy, with r points left and t whole seconds to the window's end", () => {
    // The draft's own example form: RateLimit: "default";r=50;t=30
    expect(limitHeader(1180, 41_200)).toBe('"free";r=1180;t=42');
    expect(limitHeader(0, 7_000)).toBe('"free";r=0;t=7');
    const [[name, params]] = parseList(limitHeader(3, 500)) as [[string, Map<string, unknown>]];
    expect(name).toBe("free");
    expect(Object.fromEntries(params)).toEqual({ r: 3, t: 1 });
  });

  it("never says a negative or fractional r, nor t = 0", () => {
    expect(limitHeader(-20, 0)).toBe('"free";r=0;t=1');
    expect(limitHeader(2.5, 1)).toBe('"free";r=2;t=1');
    expect(resetSeconds(0)).toBe(1);
    expect(resetSeconds(1_001)).toBe(2);
  });
});
