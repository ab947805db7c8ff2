/** GET /api/apy (spec 2.4) and GET /api/honesty-index, at the head (venue data is current only). */
import { Hono } from "hono";
import type { SigningKeys } from "../statements/keys.js";
import { onApiError } from "../http/errors.js";
import type { ReportContext } from "../reports/context.js";
import { loadApy } from "../yield/apy-service.js";
import { loadHonestyIndex, type BoardVault } from "../yield/honesty-index.js";

/** The board: both staking vaults, plus peers from KUSD_HONESTY_PEERS (a JSON array of BoardVault). */
export function boardVaults(ctx: ReportContext, env: NodeJS.ProcessEnv = process.env): BoardVault[] {
  const own: BoardVault[] = [
    { name: "skUSD", chain: "base", address: ctx.network.stakingVaults.skUSD.address, shareDecimals: 24, assetDecimals: 18, advertised: "kusd-expected-apy" },
    { name: "skUSD (superseded)", chain: "base", address: ctx.network.stakingVaults.skUSDDeprecated.address, shareDecimals: 24, assetDecimals: 18, advertised: null },
  ];
  const peers = env.KUSD_HONESTY_PEERS ? (JSON.parse(env.KUSD_HONESTY_PEERS) as BoardVault[]) : [];
  return [...own, ...peers];
}

export function yieldRoutes(ctx: ReportContext, keys: SigningKeys) {
  const app = new Hono();
  app.onError(onApiError);
  app.get("/api/apy", async (c) => c.json(await loadApy(ctx)));
  app.get("/api/honesty-index", async (c) => c.json(await loadHonestyIndex(ctx, keys, boardVaults(ctx))));
  return app;
}
