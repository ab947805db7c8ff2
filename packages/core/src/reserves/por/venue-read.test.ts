import { describe, expect, it } from "vitest";
import { RECORDED_VENUE_MAX_AGE_SECONDS, recordedVenueBasis, venueReadDoc } from "./venue-read.js";

const BLOCK_TIME = 1_790_000_000;
const reading = (ageSeconds: number, time: number | null = (BLOCK_TIME - ageSeconds) * 1000) => ({
  blockNumber: 900,
  statement: `0x${"aa".repeat(32)}`,
  statementUrl: "http://site/api/por/signed/0xaa",
  state: { equityUsd: 12_345.5, time },
  reason: null,
  readAtMs: (BLOCK_TIME - ageSeconds) * 1000 + 40,
});

describe("recordedVenueBasis", () => {
  it("uses the nearest recorded reading, aged from the venue's own time to the block's", () => {
    const b = recordedVenueBasis(reading(600), BLOCK_TIME);
    expect(b).toMatchObject({ source: "recorded", state: { equityUsd: 12_345.5 }, reason: null, ageSeconds: 600 });
    expect(venueReadDoc(b)).toEqual({
      source: "recorded",
      reason: null,
      venueTime: new Date((BLOCK_TIME - 600) * 1000).toISOString(),
      ageSeconds: 600,
      recordedAtBlock: 900,
      statement: `0x${"aa".repeat(32)}`,
      statementUrl: "http://site/api/por/signed/0xaa",
    });
  });
  it("a reading the venue answered after the block's time (the statement's own block) is age 0", () => {
    expect(recordedVenueBasis(reading(-3), BLOCK_TIME).ageSeconds).toBe(0);
  });
  it("without the venue's time, our read time ages it", () => {
    expect(recordedVenueBasis(reading(120, null), BLOCK_TIME).ageSeconds).toBe(120);
  });
  it("a recorded failed read counts nothing at its block, rather than an older reading", () => {
    const failed = recordedVenueBasis(
      { ...reading(5), state: null, reason: "venue read failed: venue answered 500" },
      BLOCK_TIME,
    );
    expect(failed).toMatchObject({ source: "none", state: null, recorded: { blockNumber: 900 } });
    expect(failed.reason).toMatch(/could not read the venue \(venue read failed: venue answered 500\)/);
  });
  it("counts nothing with no reading, or one older than the limit, and says why", () => {
    expect(recordedVenueBasis(null, BLOCK_TIME)).toMatchObject({
      source: "none",
      state: null,
      reason: expect.stringContaining("no venue reading was recorded"),
    });
    const old = recordedVenueBasis(reading(RECORDED_VENUE_MAX_AGE_SECONDS + 1), BLOCK_TIME);
    expect(old).toMatchObject({
      source: "none",
      state: null,
      ageSeconds: RECORDED_VENUE_MAX_AGE_SECONDS + 1,
      recorded: { blockNumber: 900 },
    });
    expect(old.reason).toMatch(/more than 7200 s/);
    expect(recordedVenueBasis(reading(RECORDED_VENUE_MAX_AGE_SECONDS), BLOCK_TIME).source).toBe("recorded");
  });
});
