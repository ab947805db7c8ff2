import { describe, expect, it } from "vitest";
import { SRC, UNTIL } from "./hedge-ledger.fixture.js";
import { LEDGER_SINCE_MS } from "./hedge-ledger.js";
import { HEDGE_LEDGER_METHODOLOGY, replayRequests } from "./hedge-ledger-replay.js";
import { LedgerReplaySchema } from "./hedge-ledger-schema.js";

describe("rule 6: closed PnL is one leg of a hedge", () => {
  it("says netUsd is not profit", () => {
    expect(HEDGE_LEDGER_METHODOLOGY).toMatch(/one leg of a hedge/);
    expect(HEDGE_LEDGER_METHODOLOGY).toMatch(/netUsd is not profit/);
  });
});

describe("the replay requests", () => {
  it("are the exact POST /info bodies over the window, as curl commands", () => {
    const r = replayRequests(SRC);
    expect(r.userFunding).toContain(`curl -s -X POST http://venue.test/info`);
    expect(r.userFunding).toContain(
      `'{"type":"userFunding","user":"${SRC.account}","startTime":${LEDGER_SINCE_MS},"endTime":${UNTIL}}'`,
    );
    expect(r.userFills).toContain(
      `'{"type":"userFillsByTime","user":"${SRC.account}","startTime":${LEDGER_SINCE_MS},"endTime":${UNTIL}}'`,
    );
    expect(r.fundingHistory).toContain(
      `'{"type":"fundingHistory","coin":"ETH","startTime":${LEDGER_SINCE_MS},"endTime":${UNTIL}}'`,
    );
    expect(r.writeup).toMatch(/500/);
    expect(LedgerReplaySchema.parse(r)).toEqual(r);
  });
  it("are null without a venue URL, the write-up saying so", () => {
    const r = replayRequests({ ...SRC, infoUrl: null });
    expect(r).toMatchObject({ userFunding: null, userFills: null, fundingHistory: null });
    expect(r.writeup).toMatch(/^No venue URL is configured\. Page each request/);
  });
});
