/**
 * The parts of the app the configuration decides (the paid gateway, security.txt, the origins /mcp
 * accepts), built once by a composition root (services.ts, standalone-app.ts) from the parsed
 * environment, so `createApp` only mounts what it is given and never reads the environment.
 */
import type { ServiceEnv } from "@kusd/config";
import type { NetworkConfig } from "@kusd/core";
import type { AppParts } from "./app.js";
import type { BackgroundTasks } from "./background.js";
import { securityTxtFromEnv } from "./health/routes.js";
import { mcpOriginPolicy } from "./mcp/origin-guard.js";
import { gatewayOptions } from "./paid/gateway-options.js";
import type { SigningKeys } from "./statements/keys.js";
import type { StatementService } from "./statements/statement-service.js";
import type { OperatorStore } from "./store/operator-store.js";

export function configuredParts(o: {
  env: ServiceEnv;
  network: NetworkConfig;
  siteUrl: string;
  statements: StatementService;
  store: Promise<OperatorStore>;
  keys: SigningKeys;
  background?: BackgroundTasks;
}): Pick<AppParts, "gateway" | "securityTxt" | "mcpOrigins"> {
  return {
    gateway: gatewayOptions({
      network: o.network,
      siteUrl: o.siteUrl,
      statements: o.statements,
      store: o.store,
      keys: o.keys,
      ...(o.env.KUSD_PAYMENT_LEASE_SECONDS !== undefined && { paymentLeaseSeconds: o.env.KUSD_PAYMENT_LEASE_SECONDS }),
      ...(o.background && { background: o.background }),
    }),
    securityTxt: securityTxtFromEnv(o.env),
    mcpOrigins: mcpOriginPolicy(o.siteUrl, {
      origins: o.env.KUSD_MCP_ALLOWED_ORIGINS,
      hosts: o.env.KUSD_MCP_ALLOWED_HOSTS,
    }),
  };
}
