import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BUCKET_INTERVALS, bucketCount, bucketEnd, bucketStart, bucketStarts, periodOf } from "./buckets.js";

const at = (iso: string) => Date.parse(iso) / 1000;
const iso = (t: number) => new Date(t * 1000).toISOString();

describe("UTC buckets", () => {
  it("cut at UTC hours, days, ISO weeks (Monday) and months", () => {
    const t = at("2026-11-24T21:57:26Z"); // a Tuesday
    expect(iso(bucketStart("HOUR", t))).toBe("2026-11-24T21:00:00.000Z");
    expect(iso(bucketStart("DAY", t))).toBe("2026-11-24T00:00:00.000Z");
    expect(iso(bucketStart("WEEK", t))).toBe("2026-11-23T00:00:00.000Z");
    expect(iso(bucketStart("MONTH", t))).toBe("2026-11-01T00:00:00.000Z");
    // A Sunday belongs to the week that began the Monday before; a Monday starts its own.
    expect(iso(bucketStart("WEEK", at("2026-11-29T23:59:59Z")))).toBe("2026-11-23T00:00:00.000Z");
    expect(iso(bucketStart("WEEK", at("2026-11-30T00:00:00Z")))).toBe("2026-11-30T00:00:00.000Z");
  });

  it("end where the next bucket starts, months by the calendar", () => {
    expect(iso(bucketEnd("MONTH", at("2026-12-01T00:00:00Z")))).toBe("2027-01-01T00:00:00.000Z");
    expect(iso(bucketEnd("MONTH", at("2028-02-01T00:00:00Z")))).toBe("2028-03-01T00:00:00.000Z");
    expect(bucketEnd("MONTH", at("2028-02-01T00:00:00Z")) - at("2028-02-01T00:00:00Z")).toBe(29 * 86_400);
    expect(periodOf("WEEK", at("2026-11-23T00:00:00Z"))).toEqual({
      periodStart: "2026-11-23T00:00:00.000Z",
      periodEnd: "2026-11-30T00:00:00.000Z",
    });
  });

  it("count and list the buckets between two times, both ends included", () => {
    const from = at("2026-05-14T10:00:00Z");
    const to = at("2026-11-24T21:57:26Z");
    expect(bucketCount("DAY", from, to)).toBe(195);
    expect(bucketCount("MONTH", from, to)).toBe(7);
    expect(bucketStarts("MONTH", from, to).map((s) => iso(s).slice(0, 7))).toEqual([
      "2026-05",
      "2026-06",
      "2026-07",
      "2026-08",
      "2026-09",
      "2026-10",
      "2026-11",
    ]);
    expect(bucketCount("DAY", to, from)).toBe(0);
    expect(bucketStarts("DAY", to, from)).toEqual([]);
  });

  it("agree for any interval and times: every time lies in its bucket, and the list has count entries", () => {
    const time = fc.integer({ min: 0, max: 4_102_444_800 }); // 1970 to 2100
    fc.assert(
      fc.property(fc.constantFrom(...BUCKET_INTERVALS), time, fc.integer({ min: 0, max: 3_000_000 }), (i, a, span) => {
        const s = bucketStart(i, a);
        expect(s <= a && a < bucketEnd(i, s)).toBe(true);
        expect(bucketStart(i, s)).toBe(s);
        const list = bucketStarts(i, a, a + span);
        expect(list).toHaveLength(bucketCount(i, a, a + span));
        expect(list[0]).toBe(s);
        for (let k = 1; k < list.length; k++) expect(list[k]).toBe(bucketEnd(i, list[k - 1]!));
      }),
      { numRuns: 300 },
    );
  });
});
