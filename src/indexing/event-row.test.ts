import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { logKey } from "./event-row.js";

const at = (block: bigint, logIndex: number) => ({ block: { number: block }, log: { logIndex } });

describe("logKey", () => {
  it("names a log by its block and index", () => {
    expect(logKey(at(39_123_456n, 7))).toBe("0039123456:000007");
  });

  it("sorts as strings in chain order: by block, then by log index", () => {
    const log = fc.tuple(fc.bigInt({ min: 0n, max: 9_999_999_999n }), fc.integer({ min: 0, max: 999_999 }));
    fc.assert(
      fc.property(log, log, ([b1, i1], [b2, i2]) => {
        const chain = b1 !== b2 ? (b1 < b2 ? -1 : 1) : Math.sign(i1 - i2);
        const a = logKey(at(b1, i1));
        const b = logKey(at(b2, i2));
        expect(a < b ? -1 : a > b ? 1 : 0).toBe(chain);
      }),
    );
  });
});
