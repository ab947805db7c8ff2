import { join, resolve } from "node:path";
import { earliest } from "@kusd/core";
import { createConfig } from "ponder";
import {
  evkVaultAbi,
  fiatTokenV2Abi,
  kerneVaultAbi,
  kusdAbi,
  kusdpsmAbi,
  ratedLSTAbi,
  stakedKUSDAbi,
  weth9Abi,
} from "./abis/index.js";
import { network as net, runnerEnv, serviceEnv } from "./src/config.js";
import { claimSchema } from "./src/schema-holder/claim-schema.js";
import { ponderStartSchema } from "./src/schema-holder/ponder-start-schema.js";
import { checkSyncCache } from "./src/schema-holder/sync-cache-check.js";

const psms = Object.values(net.psms);
const stakingVaults = Object.values(net.stakingVaults);
const depositVaults = Object.values(net.depositVaults);
const lsts = Object.values(net.lsts).filter((l) => l.kind === "rate-event");
const lstFeeds = Object.values(net.lsts).flatMap((l) => (l.kind === "exchange-rate-feed" ? [l] : []));
const lending = Object.values(net.lending);
const accounts = net.registryAccounts;

const pgliteDir = resolve(runnerEnv.PONDER_PGLITE_DIR ?? join(".ponder", "pglite"));
// Before Ponder takes its lock on the schema: a dead predecessor's lock costs no wait.
const heldSchema = ponderStartSchema(process.argv, process.env);
// In the same session: the chain data Ponder stored is reused only while it is this chain's.
if (heldSchema)
  await claimSchema({
    schema: heldSchema,
    databaseUrl: serviceEnv.DATABASE_URL,
    pgliteDir,
    before: (query) => checkSyncCache(query, net.chains.base),
  });

const config = createConfig({
  database: serviceEnv.DATABASE_URL
    ? { kind: "postgres", connectionString: serviceEnv.DATABASE_URL }
    : { kind: "pglite", directory: pgliteDir },
  ordering: "multichain",
  // Only base is indexed: the ethereum chain holds no protocol contract, and its head is read on
  // demand by the instant read instead of being polled every second.
  chains: {
    base: {
      id: net.chains.base.id,
      rpc: net.chains.base.rpc,
      disableCache: net.chains.base.disableCache,
      pollingInterval: net.chains.base.pollingIntervalMs,
      ...(net.chains.base.ws && { ws: net.chains.base.ws }),
      ...(net.chains.base.ethGetLogsBlockRange !== null && {
        ethGetLogsBlockRange: net.chains.base.ethGetLogsBlockRange,
      }),
    },
  },
  contracts: {
    KUSD: { abi: kusdAbi, chain: "base", address: net.kUSD.address, startBlock: net.kUSD.startBlock },
    PSM: { abi: kusdpsmAbi, chain: "base", address: psms.map((p) => p.address), startBlock: earliest(...psms) },
    StakingVault: {
      abi: stakedKUSDAbi,
      chain: "base",
      address: stakingVaults.map((v) => v.address),
      startBlock: earliest(...stakingVaults),
    },
    DepositVault: {
      abi: kerneVaultAbi,
      chain: "base",
      address: depositVaults.map((v) => v.address),
      startBlock: earliest(...depositVaults),
    },
    // Registry-account transfers come from two sources per token: Ponder keeps one filter per
    // event selector (a second `Transfer` filter silently replaces the first), so "out of a
    // registry account" and "into one" are separate contracts over the same address. The "in"
    // handler skips transfers whose sender is listed (the "out" source has them).
    USDCOut: {
      abi: fiatTokenV2Abi,
      chain: "base",
      address: net.usdc.address,
      startBlock: earliest(net.kUSD, ...psms),
      filter: { event: "Transfer", args: { from: accounts } },
    },
    USDCIn: {
      abi: fiatTokenV2Abi,
      chain: "base",
      address: net.usdc.address,
      startBlock: earliest(net.kUSD, ...psms),
      filter: { event: "Transfer", args: { to: accounts } },
    },
    WETHOut: {
      abi: weth9Abi,
      chain: "base",
      address: net.weth.address,
      startBlock: earliest(net.kUSD, ...depositVaults),
      filter: [
        { event: "Transfer", args: { src: accounts } },
        // WETH9 wraps and unwraps without a Transfer; these move balances too.
        { event: "Deposit", args: { dst: accounts } },
        { event: "Withdrawal", args: { src: accounts } },
      ],
    },
    WETHIn: {
      abi: weth9Abi,
      chain: "base",
      address: net.weth.address,
      startBlock: earliest(net.kUSD, ...depositVaults),
      filter: { event: "Transfer", args: { dst: accounts } },
    },
    LST: { abi: ratedLSTAbi, chain: "base", address: lsts.map((l) => l.address), startBlock: earliest(...lsts) },
    LendingVault: {
      abi: evkVaultAbi,
      chain: "base",
      address: lending.map((l) => l.address),
      startBlock: earliest(...lending),
    },
  },
  blocks: {
    SharePrice: {
      chain: "base",
      startBlock: earliest(...stakingVaults),
      interval: net.sharePriceInterval,
    },
    // Exchange-rate feeds (Base's wstETH / stETH): read every interval, kept once per feed update.
    LstFeed: {
      chain: "base",
      startBlock: lstFeeds.length ? earliest(...lstFeeds) : 0,
      interval: lstFeeds.length ? Math.min(...lstFeeds.map((l) => l.intervalBlocks)) : 1,
    },
  },
});

// A source a network lacks (the devnet has no exchange-rate feed, Base no rate-event token) is
// dropped; its handlers register only when it exists (src/indexing/market.ts).
const optional = config.contracts as Record<string, unknown>;
if (lsts.length === 0) delete optional.LST;
if (lending.length === 0) delete optional.LendingVault;
if (lstFeeds.length === 0) delete (config.blocks as Record<string, unknown>).LstFeed;

export default config;
