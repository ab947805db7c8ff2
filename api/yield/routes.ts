/** GET /api/apy (spec 2.4) and GET /api/honesty-index, at the head (venue data is current only). */

import { ApyReportSchema, HonestyIndexSchema } from "@kusd/core";
import { Hono } from "hono";
import type { ReportContext } from "../context.js";
import { HEAD_MAX_AGE_SECONDS, sendRendered } from "../http/rendered.js";
import { contract } from "../http/route-contract.js";
import type { SigningKeys } from "../statements/keys.js";
import { renderApy } from "./apy-service.js";
import { loadHonestyIndex } from "./honesty-index.js";
import type { YieldPeers } from "./peers.js";

const TAGS = ["Yield"];

export const apyContract = {
  summary: "Expected and realized yield of skUSD with every input and its source (spec 2.4)",
  description: "Venue-derived figures are null with the reason when the venue cannot be read; nothing is guessed.",
  tags: TAGS,
  response: ApyReportSchema,
};

export const honestyIndexContract = {
  summary: "Realized against advertised APY of ERC-4626 vaults over 7, 30 and 90 days, signed when a key is loaded",
  description:
    "Realized APY from convertToAssets(1 share) read at the blocks of those dates, for skUSD, the superseded vault and the configured peers, beside each vault's advertised APY. Its pins, signed with the rows, name each chain's head and each window's start block by hash (kusd-verify --report re-derives every figure).",
  tags: TAGS,
  response: HonestyIndexSchema,
};

export function yieldRoutes(ctx: ReportContext, keys: SigningKeys, peers: YieldPeers) {
  const app = new Hono();
  app.get("/api/apy", ...contract(apyContract), async (c) =>
    sendRendered(
      c,
      (await renderApy(ctx, peers.marketPeers)).rendered,
      `public, max-age=${Math.max(ctx.venueMaxAgeSeconds, HEAD_MAX_AGE_SECONDS)}`,
    ),
  );
  app.get("/api/honesty-index", ...contract(honestyIndexContract), async (c) =>
    c.json(await loadHonestyIndex(ctx, keys, peers.honestyPeers)),
  );
  return app;
}
