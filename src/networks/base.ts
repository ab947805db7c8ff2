import type { Address } from "viem";
import type { Deployed, NetworkConfig } from "./types.js";

/**
 * The operator's deployment on Base mainnet, from its public address registry
 * (../shared/reference/base-mainnet/deployments-8453.json, as of 2026-08-14).
 *
 * Start blocks: the registry dates each deployment but gives block numbers only for some
 * events (treasury v3 at 47,462,420 on 2026-06-16; the timelock batch at 49,623,130 on
 * 2026-08-06). Base makes a block every 2 s, so a date maps to a block to within minutes;
 * each start block below is that estimate moved a full day earlier, so nothing is missed.
 * Refine them with the deployment transactions when an RPC is at hand.
 */
const BLOCK_2026_06_16 = 47_462_420;
const blockOnDate = (iso: string) =>
  BLOCK_2026_06_16 + Math.round((Date.parse(iso) - Date.parse("2026-06-16T12:00:00Z")) / 2000) - 43_200;

const d = (address: Address, deployedOn: string): Deployed => ({ address, startBlock: blockOnDate(deployedOn) });

const kUSD = d("0x5C2EfdF0D8D286959b42308966bc2B97f5680AA3", "2026-05-10T00:00:00Z");
const skUSDv1 = d("0xdEd74F7E06efc76455C07418b8b74Cc2bc009DB4", "2026-05-11T00:00:00Z");
const psmV1 = d("0xFf3025ec18e301855aB0f36Ec6ECa115a29A5Fbc", "2026-05-10T00:00:00Z");
const vaultV1 = d("0x8005bc7A86AD904C20fd62788ABED7546c1cF2AC", "2026-05-10T00:00:00Z");

const admin = {
  safe: "0x52d3E450bA6c299B1B07298F1E87DD74732D4877",
  timelock: "0x36A14976980B7Dd33136f6613545EB0A2C0a0D72",
} as const;

/** The account that signed statements before 2026-08-13 (the venue-margin account). */
const VENUE_MARGIN_ACCOUNT: Address = "0x09a2780ac8Be6D5d2d1F85A8D92b09D40C9CA37e";

export function baseNetwork(env: NodeJS.ProcessEnv = process.env): NetworkConfig {
  const rpc = (name: string) => {
    const url = env[name];
    if (!url) throw new Error(`${name} is required when KUSD_NETWORK=base`);
    return [url];
  };
  const registryAccounts: Address[] = [
    VENUE_MARGIN_ACCOUNT,
    admin.safe,
    admin.timelock,
    "0x5343C41d4FF2B61DAacA9cbC050550C40605B075", // treasury v3
    "0x7c07517ABcc4BD674CC74B76D2Ab0d95A41560d5", // treasury v2 (superseded)
    "0xE8799FCF327C6D2f78103a3c9308C93592A30403", // insurance fund
    "0xaBDE1138aa1Ce88d1dF06422C0c3b05D70569803", // live mint PSM
    "0x07eBb486e11BD217e6085eb5ab663e4517595993", // retired mint PSM
    psmV1.address,
    "0x8ccc56B5624e2FDB592F6609d81F4c3798e3292B", // vault v2
    vaultV1.address,
    "0x96F5102C15b839757f811A98CEc3725Ac21DfA14", // skUSD
    skUSDv1.address,
    kUSD.address,
  ];
  return {
    name: "base",
    chains: {
      base: { id: 8453, rpc: rpc("PONDER_RPC_URL_8453"), disableCache: false },
      ethereum: { id: 1, rpc: rpc("PONDER_RPC_URL_1"), disableCache: false, startBlock: "latest" },
    },
    kUSD,
    usdc: d("0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", "2026-05-10T00:00:00Z"),
    weth: d("0x4200000000000000000000000000000000000006", "2026-05-10T00:00:00Z"),
    psms: {
      psmMint: d("0xaBDE1138aa1Ce88d1dF06422C0c3b05D70569803", "2026-07-10T00:00:00Z"),
      psmRetiredMint: d("0x07eBb486e11BD217e6085eb5ab663e4517595993", "2026-06-16T00:00:00Z"),
      psmRedeemReserve: psmV1,
    },
    stakingVaults: { skUSD: d("0x96F5102C15b839757f811A98CEc3725Ac21DfA14", "2026-07-03T00:00:00Z"), skUSDDeprecated: skUSDv1 },
    depositVaults: { vaultV1, vaultV2: d("0x8ccc56B5624e2FDB592F6609d81F4c3798e3292B", "2026-06-16T00:00:00Z") },
    // On Base, LST exchange rates come from oracle contracts, not from the bridged tokens;
    // the staking-yield source for mainnet is configured with the yield report.
    lsts: {},
    lending: {},
    registryAccounts,
    sharePriceInterval: 1_800, // one hour of Base blocks
    reporting: {
      multisig: admin.safe,
      timelock: admin.timelock,
      treasury: "0x5343C41d4FF2B61DAacA9cbC050550C40605B075",
      insuranceFund: "0xE8799FCF327C6D2f78103a3c9308C93592A30403",
      operator: VENUE_MARGIN_ACCOUNT,
      hedgeWatchOnly: (env.KUSD_HEDGE_WATCH_ONLY as Address | undefined) ?? null,
      incentiveEscrow: (env.KUSD_INCENTIVE_ESCROW as Address | undefined) ?? null,
      // Chainlink ETH / USD on Base; override with KUSD_ETH_USD_FEED.
      ethUsdFeed: (env.KUSD_ETH_USD_FEED as Address | undefined) ?? "0x71041dddad3595F9CEd3DcCFBe3D1F4b0a16Bb70",
      venue: { name: "hyperliquid", url: env.KUSD_VENUE_URL ?? "https://api.hyperliquid.xyz/info", account: VENUE_MARGIN_ACCOUNT, coin: "ETH" },
      signers: {
        operator: VENUE_MARGIN_ACCOUNT,
        attestation: (env.KUSD_ATTESTATION_SIGNER as Address | undefined) ?? null,
        attestationFrom: Date.parse("2026-08-13T00:00:00Z") / 1000,
      },
      publicRpc: { base: env.KUSD_PUBLIC_RPC_URL_8453 ?? "https://mainnet.base.org", ethereum: env.KUSD_PUBLIC_RPC_URL_1 ?? "https://ethereum-rpc.publicnode.com" },
      readRpc: { base: env.KUSD_READ_RPC_URL_8453 ?? rpc("PONDER_RPC_URL_8453")[0]!, ethereum: env.KUSD_READ_RPC_URL_1 ?? rpc("PONDER_RPC_URL_1")[0]! },
    },
    // The published registry document is built from configuration in the registry issue; until
    // then the listed accounts above stand without versions.
    registry: { operator: VENUE_MARGIN_ACCOUNT, versions: [] },
    yieldPolicy: { strategyCostFraction: 0.1, insuranceAllocation: 0.1, protocolFee: 0, feePhase: "genesis" },
    payments: {
      network: "eip155:8453",
      recipient: (env.KUSD_PAYMENT_RECIPIENT as Address | undefined) ?? null,
      builderCode: env.KUSD_BUILDER_CODE ?? "",
      asset: { address: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", name: "USD Coin", version: "2", symbol: "USDC", decimals: 6 },
      facilitator: env.KUSD_X402_FACILITATOR_URL
        ? { kind: "http", url: env.KUSD_X402_FACILITATOR_URL }
        : env.KUSD_FACILITATOR_PRIVATE_KEY
          ? { kind: "local", rpcUrl: env.PONDER_RPC_URL_8453 ?? "", privateKey: env.KUSD_FACILITATOR_PRIVATE_KEY as `0x${string}` }
          : null,
    },
  };
}
