/**
 * A mainnet-shaped rehearsal: anvil with chain id 8453 from a real Base height, the faithful
 * contracts at their real addresses, a short history at real heights, and the Base history
 * simulator presenting it at those heights. The unmodified `base` configuration indexes it with
 * only its RPC URLs, the registry source and the venue (the outside world) pointed here.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readServiceEnv } from "@kusd/config";
import { networkDocument, selectNetwork } from "@kusd/config/node";
import type { NetworkConfig } from "@kusd/core";
import type { Address } from "viem";
import { type AnvilHandle, startAnvil } from "../anvil.js";
import { type BaseHistory, startBaseHistory } from "../base-history.js";
import { ChainDriver } from "../driver.js";
import { installEas } from "../eas.js";
import { installMulticall3 } from "../multicall3.js";
import { startVenueServer, type VenueServer } from "../venue/server.js";
import { publishedRegistry } from "./published-registry.js";
import { playMainnetStory, type RehearsalFacts, timeOfHeight } from "./story.js";

export type MainnetRehearsal = {
  /** The Base history simulator: what the indexer, the doctor and the checks talk to. */
  baseRpcUrl: string;
  /** anvil itself (anvil block numbers), for the test's own bookkeeping only. */
  anvilRpcUrl: string;
  ethereumRpcUrl: string;
  venueUrl: string;
  registrySourceFile: string;
  /** The environment a Base deployment of this service is started with, pointed at the rehearsal. */
  env: Record<string, string>;
  /** The base configuration's addresses (RPC placeholders aside). */
  network: NetworkConfig;
  guardian: Address;
  facts: RehearsalFacts;
  history: BaseHistory;
  stop(): Promise<void>;
};

export async function startMainnetRehearsal(
  ports: { base: number; ethereum: number; venue: number },
  log: (line: string) => void = () => {},
): Promise<MainnetRehearsal> {
  const placeholder = readServiceEnv({
    KUSD_NETWORK: "base",
    PONDER_RPC_URL_8453: "http://rehearsal.invalid",
    KUSD_READ_RPC_URL_1: "http://rehearsal.invalid",
  });
  const network = selectNetwork(placeholder);
  const guardian = networkDocument(placeholder).admin.pauseGuardian as Address;
  const genesis = Math.min(...network.deployments.map((d) => d.startBlock)) - 400;
  const dir = mkdtempSync(join(tmpdir(), "kusd-rehearsal-"));
  const started: { stop(): Promise<unknown> }[] = [];
  const stop = async () => {
    for (const s of started.reverse()) await s.stop().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const anvil: AnvilHandle = await startAnvil({
      port: ports.base,
      chainId: 8453,
      timestamp: timeOfHeight(genesis),
      number: genesis,
    });
    started.push(anvil);
    // Base has had Multicall3 since block 5,022, and EAS as a predeploy since genesis: the
    // rehearsal's heights are far past both.
    await installMulticall3(anvil.rpcUrl);
    await installEas(anvil.rpcUrl);
    const ethereum = await startAnvil({
      port: ports.ethereum,
      chainId: 1,
      timestamp: Math.floor(Date.now() / 1000) - 86_400,
    });
    started.push(ethereum);
    log(`base anvil from height ${genesis.toLocaleString("en-US")}, ethereum anvil`);
    const d = new ChainDriver(anvil.rpcUrl, timeOfHeight(genesis) + 2);
    const headTime = Math.floor(Date.now() / 1000) - 3_600;
    const facts = await playMainnetStory(d, network, guardian, headTime);
    log(`story played: head at height ${facts.headHeight.toLocaleString("en-US")}`);
    const history = await startBaseHistory({ upstream: anvil.rpcUrl, creations: facts.creations });
    started.push(history);
    const registry = await publishedRegistry(
      network,
      history.url,
      guardian,
      facts.headHeight,
      Date.parse("2026-08-10T00:00:00Z") / 1000,
    );
    const registrySourceFile = join(dir, "published-registry.json");
    writeFileSync(registrySourceFile, JSON.stringify(registry.documents, null, 2));
    const venue: VenueServer = await startVenueServer({ port: ports.venue, hedgeAccount: network.reporting.operator });
    started.push({ stop: () => venue.close() });
    return {
      baseRpcUrl: history.url,
      anvilRpcUrl: anvil.rpcUrl,
      ethereumRpcUrl: ethereum.rpcUrl,
      venueUrl: venue.url,
      registrySourceFile,
      env: {
        KUSD_NETWORK: "base",
        // One simulator listed many times: Ponder budgets each listed provider separately, and
        // a local simulator takes far more than one provider's budget.
        PONDER_RPC_URL_8453: Array(10).fill(history.url).join(","),
        KUSD_READ_RPC_URL_1: ethereum.rpcUrl,
        KUSD_REGISTRY_SOURCE: registrySourceFile,
        KUSD_VENUE_URL: `${venue.url}/info`,
        // Nothing of a devnet in the same environment may leak in: no network file, no keys.
        KUSD_NETWORK_FILE: "",
        KUSD_REGISTRY_SIGNATURES: "",
        KUSD_OPERATOR_PRIVATE_KEY: "",
        KUSD_ATTESTATION_PRIVATE_KEY: "",
        KUSD_FACILITATOR_PRIVATE_KEY: "",
      },
      network,
      guardian,
      facts,
      history,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
