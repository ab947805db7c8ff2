import type { Address } from "viem";
import { baseBlockOnDate } from "./base-blocks.js";
import type { Deployed, NetworkConfig } from "./types.js";

/**
 * The operator's deployment on Base mainnet, from its public address registry
 * (../shared/reference/base-mainnet/deployments-8453.json) and its source mirror (operator-repo).
 *
 * Start blocks: the exact deployment block where one is published, otherwise the first block of
 * the UTC day the operator dates the deployment (`baseBlockOnDate`), which no deployment on that
 * day precedes. Creation transactions are from operator-repo `*\/creator-tx-hash.txt`; the live
 * mint PSM's is not in the mirror. `kusd-doctor` (issue 14) resolves them against an RPC.
 */
type Deployment = Deployed & { creationTx: `0x${string}` | null; source: string };

const deployedOn = (address: Address, day: string, creationTx: Deployment["creationTx"], source: string): Deployment => ({
  address,
  startBlock: baseBlockOnDate(day),
  creationTx,
  source,
});

// kUSD: "deployed 2026-04-08" (audits/DEPLOYED_VS_SOURCE.md). PSM v1 and vault v1 have no
// published date; PSM v1's constructor names kUSD, so kUSD's day is the earliest either can be.
const kUSD = deployedOn("0x5C2EfdF0D8D286959b42308966bc2B97f5680AA3", "2026-04-08", "0xb08fd3bd9af062991d54151d3a78161e6d51b2b73f2ef4471ca8b96841edfa67", "DEPLOYED_VS_SOURCE: deployed 2026-04-08");
const psmV1 = deployedOn("0xFf3025ec18e301855aB0f36Ec6ECa115a29A5Fbc", "2026-04-08", "0x90adc99e6d1aaccfcdc7b2eb5b0a9bd618a6063cfbd0f747cdbb4e85999fd84b", "no published date; not before kUSD");
const vaultV1 = deployedOn("0x8005bc7A86AD904C20fd62788ABED7546c1cF2AC", "2026-04-08", "0xa0407a84496f3a90cc60bffcb5a234ad52dc1f927b6f294c505ff90309f7bf50", "no published date; not before kUSD");
const skUSDv1 = deployedOn("0xdEd74F7E06efc76455C07418b8b74Cc2bc009DB4", "2026-05-11", "0x032705836c6b8acbf641c9d629258eb73de2405e1c6fb8c9f32748bb19a3bb0f", "registry retired._skUSDNote: deployed 2026-05-11");
const psmV3 = deployedOn("0x07eBb486e11BD217e6085eb5ab663e4517595993", "2026-06-16", "0x3222b75c88ecc1d2b1a8aabd9bc61ede74cee0d54e9cecaee160a3d7cb3a2b95", "SCOPE.md: 2026-06-16 ceremony");
const vaultV2 = deployedOn("0x8ccc56B5624e2FDB592F6609d81F4c3798e3292B", "2026-06-16", "0x8a52fd79b0e1ad227f2e956ffddd667bff5af72efb3739801bfd3766d2881b9c", "SCOPE.md: 2026-06-16 ceremony");
const psmLive = deployedOn("0xaBDE1138aa1Ce88d1dF06422C0c3b05D70569803", "2026-07-10", null, "registry: live mint PSM redeployed 2026-07-10");
/** skUSD's deploy block is published (DEPLOYED_VS_SOURCE: "the deploy block 48175381"). */
const skUSD: Deployment = {
  address: "0x96F5102C15b839757f811A98CEc3725Ac21DfA14",
  startBlock: 48_175_381,
  creationTx: "0x80fbca4ba2ef4b1b606ddcfd98ec8a7ccd16bebb23e6bb3cb0e15d33a2b6cc81",
  source: "DEPLOYED_VS_SOURCE: deploy block 48175381",
};

/** Every indexed contract of the operator's, with where its start block comes from. */
export const BASE_DEPLOYMENTS = { kUSD, psmV1, vaultV1, skUSDv1, psmV3, vaultV2, psmLive, skUSD } as const;

/** From the registry file's contracts, retired and admin sections: what the reports do not index. */
const OTHER_OPERATOR_CONTRACTS: Address[] = [
  "0x230f3a63E8413D42bEe9103b98a204030206186c", // KERNE
  "0x29c1d396A35aB75a8Bb8dC3949f98edFa5f25b34", // esKERNE
  "0x032Af1631671126A689614c0c957De774b45D582", // KerneStaking
  "0x1A04AF62baFc84b08b19d2aF7285eD5f8dAe4D9f", // KerneReferral
  "0x096e38a04B632D28E017f86836225E0956CaD878", // KerneYieldDistributor
  "0x8DE2d5ac5aBc7331a6E1d450a5c021db18599CdB", // KerneYieldOracle
  "0x57e73919Efc8a70B40a0bFc562C4DC9e58c4D76F", // KerneFlashArbBot
  "0x257579db2702BAeeBFAC5c19d354f2FF39831299", // kUSD v1
  "0xfEA3D217F5f2304C8551dc9F5B5169F2c2d87340", // KERNE v1
  "0x7c07517ABcc4BD674CC74B76D2Ab0d95A41560d5", // treasury v2
  "0xC47adaf51907bB1871D07E18eA21dc75Ae93Cc8E", // pause guardian
];

const at = (x: Deployment): Deployed => ({ address: x.address, startBlock: x.startBlock });

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
    // Transfers of USDC and WETH matter only from the protocol's first contract on.
    usdc: { address: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", startBlock: kUSD.startBlock },
    weth: { address: "0x4200000000000000000000000000000000000006", startBlock: kUSD.startBlock },
    kUSD: { address: kUSD.address, startBlock: kUSD.startBlock },
    psms: { psmMint: at(psmLive), psmRetiredMint: at(psmV3), psmRedeemReserve: at(psmV1) },
    stakingVaults: { skUSD: at(skUSD), skUSDDeprecated: at(skUSDv1) },
    depositVaults: { vaultV1: at(vaultV1), vaultV2: at(vaultV2) },
    // On Base, LST exchange rates come from oracle contracts, not from the bridged tokens;
    // the staking-yield source for mainnet is configured with the yield report.
    lsts: {},
    // The operator's permissionless Euler v2 Edge market (underwriting memo, section 8):
    // "Deployed 2026-08-09, Base block 49,726,126".
    lending: {
      lendingUSDC: { address: "0xe87c294E1139C31770727193e3Be0ccEd73d6AA3", startBlock: 49_726_126 }, // eUSDC-116
      lendingEscrowKUSD: { address: "0xD3800ceb6bBeB90101ed5d5A46017fE846c9509e", startBlock: 49_726_126 }, // ekUSD-1
    },
    otherOperatorContracts: OTHER_OPERATOR_CONTRACTS,
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
