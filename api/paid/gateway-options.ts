/**
 * The paid gateway's parts from the parsed configuration: its terms (payee, asset, prices), its
 * facilitator, its chain clients and recovery settings. Built by the composition roots
 * (services.ts, standalone-app.ts) and handed to `createApp`, which only mounts it; null when no
 * recipient or no facilitator is configured (the gateway is off).
 */
import type { NetworkConfig } from "@kusd/core";
import type { BackgroundTasks } from "../background.js";
import { rpcClient } from "../context.js";
import type { SigningKeys } from "../statements/keys.js";
import type { StatementService } from "../statements/statement-service.js";
import type { OperatorStore } from "../store/operator-store.js";
import { createFacilitatorClient } from "./facilitator.js";
import type { GatewayOptions } from "./gateway.js";
import { operatorOwnedAddresses } from "./operator-owned.js";

/** Per request, in the asset's units (USDC, 6 decimals): 0.25 and 29. */
export const PRICES = { reserves: 250_000n, instantRead: 29_000_000n } as const;

export function gatewayOptions(o: {
  network: NetworkConfig;
  siteUrl: string;
  statements: StatementService;
  store: Promise<OperatorStore>;
  keys: SigningKeys;
  paymentLeaseSeconds?: number;
  background?: BackgroundTasks;
}): GatewayOptions | null {
  const { network } = o;
  const pay = network.payments;
  if (!pay.recipient || !pay.facilitator) return null;
  return {
    basePath: "/paid",
    publicUrl: `${o.siteUrl}/paid`,
    network: pay.network,
    recipient: pay.recipient,
    builderCode: pay.builderCode,
    asset: pay.asset,
    prices: PRICES,
    facilitator: createFacilitatorClient(
      pay.facilitator.kind === "local" ? { ...pay.facilitator, network: pay.network } : pay.facilitator,
    ),
    statements: o.statements,
    store: o.store,
    keys: o.keys,
    // The gateway's chain work (settlement checks, recovery, instant reads) counted as "paid settlement".
    chains: {
      base: rpcClient(network.reporting.readRpc.base, "paid settlement"),
      ethereum: rpcClient(network.reporting.readRpc.ethereum, "paid settlement"),
      ids: { base: network.chains.base.id, ethereum: network.chains.ethereum.id },
    },
    operatorOwned: operatorOwnedAddresses(network),
    operator: network.reporting.signers.operator,
    ...(o.paymentLeaseSeconds !== undefined && { paymentLeaseSeconds: o.paymentLeaseSeconds }),
    ...(o.background && { background: o.background }),
    ...(network.chains.base.ethGetLogsBlockRange && {
      logRange: BigInt(network.chains.base.ethGetLogsBlockRange),
    }),
  };
}
