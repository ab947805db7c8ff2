/**
 * GET /api/euler without a chain: the route's 404 for a network without a market, before any
 * read. The report's pure assembly is unit-tested in packages/core/src/lending/occupancy.test.ts; everything
 * that reads a chain (block resolution, failed reads, 4xx for a bad block) is tested on the
 * devnet in test/e2e/lending-occupancy-e2e.test.ts.
 */

import type { NetworkConfig } from "@kusd/core";
import type { Address } from "viem";
import { describe, expect, it } from "vitest";
import type { ReportContext } from "../context.js";
import { withApiErrors } from "../http/errors.js";
import { createReportCaches } from "../report-caches.js";
import { lendingRoutes } from "./routes.js";

const OPERATOR = "0x00000000000000000000000000000000000000aa" as Address;

const networkWith = (lending: NetworkConfig["lending"]) =>
  ({
    name: "base",
    lending,
    reporting: { operator: OPERATOR, publicRpc: { base: "http://public.rpc", ethereum: "http://public.rpc" } },
  }) as unknown as NetworkConfig;

describe("GET /api/euler without a lending market", () => {
  it("404 lending_market_not_configured (Base mainnet today), before any chain read", async () => {
    const ctx = {
      network: networkWith({}),
      base: undefined as never,
      ethereum: undefined as never,
      db: undefined as never,
      venue: null,
      siteUrl: "http://site.test",
      venueMaxAgeSeconds: 0,
      headFreshMs: 0,
      caches: createReportCaches({ headFreshMs: 0, venueMaxAgeSeconds: 0 }),
    } satisfies ReportContext;
    const res = await withApiErrors(lendingRoutes(ctx)).request("/api/euler");
    expect(res.status).toBe(404);
    const body = (await res.json()) as any;
    expect(body.error.code).toBe("lending_market_not_configured");
    expect(body.error.details.missing).toEqual(["lendingUSDC", "lendingEscrowKUSD"]);
  });
});
