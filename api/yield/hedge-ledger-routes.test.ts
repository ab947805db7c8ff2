/** GET /api/hedge-ledger without a venue: the answer needs no read. Against the devnet venue: test/e2e/hedge-ledger-e2e.test.ts. */

import { describe, expect, it } from "vitest";
import type { ReportContext } from "../context.js";
import { withApiErrors } from "../http/errors.js";
import { hedgeLedgerRoutes, parseUntil } from "./hedge-ledger-routes.js";

const t = (iso: string) => Date.parse(iso);
const UNTIL = t("2026-08-15T00:00:00Z");
const ACCOUNT = "0x00000000000000000000000000000000000000aa";

describe("the route without a venue", () => {
  const ctx = {
    network: {
      chains: { base: { id: 8453 } },
      documentSha256: `0x${"d0".repeat(32)}`,
      reporting: { venue: { name: "hyperliquid", url: null, account: ACCOUNT, coin: "ETH" } },
    },
  } as unknown as ReportContext;
  const app = withApiErrors(hedgeLedgerRoutes(ctx, () => UNTIL));

  it("answers 200, isLive false and null figures when no venue is configured", async () => {
    const res = await app.request("/api/hedge-ledger");
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(body.isLive).toBe(false);
    expect(body.totals.fundingUsd).toBeNull();
    expect(body.venueRead.reason).toMatch(/no venue URL/);
  });
  it("rejects a bad until with a 400 JSON error", async () => {
    for (const until of ["yesterday", "2026-13-01", "2026-05-01T00:00:00Z", "2026-06-01T00:00:00"]) {
      const res = await app.request(`/api/hedge-ledger?until=${encodeURIComponent(until)}`);
      expect(res.status, until).toBe(400);
      expect(((await res.json()) as any).error.code).toMatch(/^(invalid_until|until_before_since)$/);
    }
  });
  it("caps until at now", () => {
    expect(parseUntil(undefined, UNTIL)).toBe(UNTIL);
    expect(parseUntil("2026-06-01", UNTIL)).toBe(t("2026-06-01T00:00:00Z"));
    expect(parseUntil("2030-01-01T00:00:00Z", UNTIL)).toBe(UNTIL);
  });
});
