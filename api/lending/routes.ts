/**
 * GET /api/euler[?block=N]: occupancy of the operator's isolated lending market. By default the
 * block is the RPC's latest, so the route needs no indexer database; a host that wants reports
 * aligned with the indexed head passes its own `resolveBlock`.
 */

import { LendingOccupancySchema } from "@kusd/core";
import { Hono } from "hono";
import { z } from "zod";
import { liveClient, type ReportContext } from "../context.js";
import { ApiError, badRequest } from "../http/errors.js";
import { blockParam } from "../http/query-params.js";
import { contract } from "../http/route-contract.js";
import { lendingMarketOf, loadOccupancy } from "./occupancy-service.js";

export const eulerContract = {
  summary: "Occupancy of the operator's isolated lending market: supply, borrows, utilisation and who borrows",
  description:
    "Supply, borrows, cash, utilisation, borrow APR, the operator's share of supply and its kUSD escrowed as collateral, each a read pinned to blockNumber with its `cast call … --block N`.",
  tags: ["Lending"],
  query: z.object({ block: blockParam }),
  response: LendingOccupancySchema,
  errors: {
    404: "no lending market is configured on this network",
    422: "the block is past the head",
    503: "the chain could not be read",
  },
};

export type ResolveBlock = (requested?: string) => Promise<{ blockNumber: bigint }>;
export type LendingRoutesOptions = { resolveBlock?: ResolveBlock };

/** `?block=` against the chain's latest block: absent, empty or "latest" is the latest; a later block is 422. */
export function chainHeadResolver(ctx: ReportContext): ResolveBlock {
  return async (requested) => {
    if (!blockParam.safeParse(requested).success) {
      throw badRequest("invalid_block", "block must be a non-negative decimal integer or 'latest'", {
        block: requested,
      });
    }
    let latest: bigint;
    try {
      latest = await liveClient(ctx).getBlockNumber({ cacheTime: 0 });
    } catch (e) {
      // Without the head we cannot tell a future block from a past one: refuse rather than guess.
      throw new ApiError("chain_unavailable", "the chain's latest block could not be read", {
        cause: (e as Error).message?.split("\n")[0],
      });
    }
    if (requested === undefined || requested === "" || requested === "latest") return { blockNumber: latest };
    const blockNumber = BigInt(requested);
    if (blockNumber > latest)
      throw new ApiError("block_not_mined", `block ${blockNumber} is past the chain's latest block ${latest}`, {
        block: requested,
        latestBlock: Number(latest),
      });
    return { blockNumber };
  };
}

export function lendingRoutes(ctx: ReportContext, opts: LendingRoutesOptions = {}) {
  const app = new Hono();
  const resolveBlock = opts.resolveBlock ?? chainHeadResolver(ctx);

  app.get("/api/euler", ...contract(eulerContract), async (c) => {
    const market = lendingMarketOf(ctx.network); // 404 before any chain read
    const { blockNumber } = await resolveBlock(c.req.valid("query").block);
    if (blockNumber < market.startBlock) {
      throw badRequest(
        "block_before_deployment",
        `block ${blockNumber} is before the lending market was deployed (block ${market.startBlock})`,
        {
          block: blockNumber.toString(),
          firstBlock: Number(market.startBlock),
        },
      );
    }
    return c.json(await loadOccupancy(ctx, blockNumber));
  });

  return app;
}
