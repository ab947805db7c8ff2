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
import { selectNetwork } from "./src/networks/index.js";
import { earliest } from "./src/networks/types.js";

const net = selectNetwork();
const psms = Object.values(net.psms);
const stakingVaults = Object.values(net.stakingVaults);
const depositVaults = Object.values(net.depositVaults);
const lsts = Object.values(net.lsts);
const lending = Object.values(net.lending);
const accounts = net.registryAccounts;

const config = createConfig({
  database: process.env.DATABASE_URL
    ? { kind: "postgres", connectionString: process.env.DATABASE_URL }
    : { kind: "pglite", ...(process.env.PONDER_PGLITE_DIR && { directory: process.env.PONDER_PGLITE_DIR }) },
  ordering: "multichain",
  chains: {
    base: { id: net.chains.base.id, rpc: net.chains.base.rpc, disableCache: net.chains.base.disableCache },
    ethereum: { id: net.chains.ethereum.id, rpc: net.chains.ethereum.rpc, disableCache: net.chains.ethereum.disableCache },
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
    LendingVault: { abi: evkVaultAbi, chain: "base", address: lending.map((l) => l.address), startBlock: earliest(...lending) },
  },
  blocks: {
    // Follows the ethereum chain so that /status shows it at head; instant reads pin to it.
    EthereumHead: { chain: "ethereum", startBlock: net.chains.ethereum.startBlock, interval: 1 },
    SharePrice: {
      chain: "base",
      startBlock: earliest(...stakingVaults),
      interval: net.sharePriceInterval,
    },
  },
});

// A network without LSTs or a lending market (Base mainnet today) indexes neither source;
// their handlers register only when the source exists (src/indexing/market.ts).
const optional = config.contracts as Record<string, unknown>;
if (lsts.length === 0) delete optional.LST;
if (lending.length === 0) delete optional.LendingVault;

export default config;
