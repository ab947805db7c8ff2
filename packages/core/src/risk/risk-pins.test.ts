import { describe, expect, it } from "vitest";
import type { OffChainInputs } from "./off-chain-triggers.js";
import { offChainInputsOf, RiskPinsSchema, riskPins } from "./risk-pins.js";

const ACCOUNT = "0x00000000000000000000000000000000000000a1";
const base = { network: { chainId: 8453, documentSha256: `0x${"ab".repeat(32)}` as const }, block: null };
const inputs = (o: Partial<OffChainInputs>): OffChainInputs => ({
  atHead: true,
  venueAccount: ACCOUNT,
  venue: { equityUsd: 1_234.5, timeMs: 1_700_000_000_000 },
  venueReason: null,
  statementSignedAt: 1_699_999_000,
  now: 1_700_000_010,
  ...o,
});

describe("riskPins", () => {
  it("records the venue's answer and the off-chain inputs so that they read back as they were used", () => {
    const used = inputs({});
    const pins = riskPins({ base, venueUrl: "http://venue/info", offChain: used, receivedAtMs: 1_700_000_000_500 });
    expect(RiskPinsSchema.parse(pins)).toEqual(pins);
    expect(pins.venue?.requests).toEqual([
      {
        request: { type: "clearinghouseState", user: ACCOUNT },
        history: false,
        pages: 1,
        records: null,
        venueTimeMs: 1_700_000_000_000,
        receivedAtMs: 1_700_000_000_500,
        answer: { equityUsd: 1_234.5 },
      },
    ]);
    expect(offChainInputsOf(pins)).toEqual(used);
  });

  it("a venue not read records why, and no request", () => {
    const used = inputs({
      atHead: false,
      venue: null,
      venueReason: "past block: the venue publishes current equity only",
    });
    const pins = riskPins({ base, venueUrl: null, offChain: used, receivedAtMs: null });
    expect(pins.venue).toMatchObject({ requests: [], failed: used.venueReason });
    expect(offChainInputsOf(pins)).toEqual(used);
  });
});
