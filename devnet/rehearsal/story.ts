/**
 * A short history of the protocol on Base, played on a rehearsal chain at real heights: the
 * faithful contracts at their real mainnet addresses (taken from the operator's registry file and
 * our base document, not retyped), each placed on its documented day or block, the fee ladder,
 * the role moves of the 2026-06-16 ceremony and the 2026-07-10 redeploy, skUSD at its published
 * block, the timelock handover at block 49,623,130, the Euler market at 49,726,126, a redemption,
 * staking yield, the wstETH / stETH rate and one transfer that breaks the registry rule.
 */

import type { NetworkConfig } from "@kusd/core";
import { BASE_GENESIS_TIMESTAMP, baseBlockAt, DEFAULT_ADMIN_ROLE, MANAGER_ROLE, MINTER_ROLE } from "@kusd/core";
import { type Address, getAddress, type Hex, parseEther } from "viem";
import { loadArtifact } from "../artifacts.js";
import { type ChainDriver, encode } from "../driver.js";
import { FEE_TIERS, SWAP_FEE_BPS, usdc } from "../history.js";
import { placeContract } from "./place.js";

export const timeOfHeight = (h: number) => BASE_GENESIS_TIMESTAMP + 2 * h;
export const heightOf = (iso: string) => baseBlockAt(Date.parse(iso) / 1000);

/** Outside parties of the rehearsal (anvil's development accounts, impersonated). */
const actor = (a: string) => getAddress(a.toLowerCase());
export const REHEARSAL_ACTORS = {
  deployer: actor("0x70997970c51812dc3a010c7d01b50e0d17dc79c8"),
  circle: actor("0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc"),
  keeper: actor("0x90f79bf6eb2c4f870365e785982e1f101e93b906"),
  user: actor("0x15d34aaf54267db7d7c367839aaf71a00a2c6a65"),
  lender: actor("0x9965507d1a55bcc2695c3a457f79816dc59e3b0e"),
  outsider: actor("0x976ea74026e726554db657fa54763abd0c7a0aa9"),
};
/** A hedge sub-account the rehearsal's published registry lists and signs for. */
export const HEDGE_SUBACCOUNT_KEY: Hex = "0x4bbbf85ce3377467afe5d46f804f221813b2bb87f24d81f60f1fcdbf7cbf4356";

export type RehearsalFacts = {
  /** Anvil transaction that stands in for each real creation transaction. */
  creations: Record<Hex, { anvilTx: Hex; contractAddress: Address }>;
  /** The wstETH / stETH rates pushed, with their times (for the staking yield by hand). */
  wstEthRates: { t: number; rate: bigint }[];
  violation: { from: Address; to: Address; amount: bigint; height: number };
  headHeight: number;
};

export async function playMainnetStory(
  d: ChainDriver,
  net: NetworkConfig,
  guardian: Address,
  headTime: number,
): Promise<RehearsalFacts> {
  const A = REHEARSAL_ACTORS;
  const r = net.reporting;
  const safe = r.multisig;
  const timelock = r.timelock!;
  const operator = r.operator;
  const usdcAddr = net.usdc.address;
  const { kUSD, psms, stakingVaults, depositVaults, lending } = net;
  const deployment = (role: string) => net.deployments.find((x) => x.role === role)!;
  const facts: RehearsalFacts = { creations: {}, wstEthRates: [], violation: null as never, headHeight: 0 };
  const at = (h: number) => d.at(timeOfHeight(h));
  const send = (from: Address, to: Address, artifact: string, fn: string, args: readonly unknown[] = []) =>
    d.send({ from, to, data: encode(loadArtifact(artifact).abi, fn, args) });
  const place = async (
    role: string | null,
    address: Address,
    artifact: string,
    args: readonly unknown[],
    from: Address = A.deployer,
  ) => {
    const { tx } = await placeContract(d, address, artifact, args, from);
    const creationTx = role ? deployment(role).creationTx : null;
    if (creationTx) facts.creations[creationTx] = { anvilTx: tx, contractAddress: address };
  };

  await d.rpc("anvil_autoImpersonateAccount", [true]);
  await d.setBalances([...Object.values(A), safe, timelock, operator, r.treasury, guardian], parseEther("1000"));
  // The key that anchors statements holds a little ETH for gas, as it must on Base.
  const attestation = net.reporting.signers.attestation;
  if (attestation) await d.setBalances([attestation], parseEther("0.01"));

  // Before the protocol: the outside world it uses (USDC, WETH, the feeds) and the admin Safe.
  const genesis = net.kUSD.startBlock - 300;
  at(genesis + 1);
  await place(null, usdcAddr, "FiatTokenV2", [A.circle]);
  await place(null, net.weth.address, "WETH9", []);
  await place(null, net.feeds.ethUsd!.address, "PriceFeed", [8, net.feeds.ethUsd!.description, A.keeper]);
  await place(null, net.feeds.wstETHRate!.address, "PriceFeed", [18, net.feeds.wstETHRate!.description, A.keeper]);
  // The depeg gate's USDC / USD feed: its Base address is in none of our sources, so a stand-in.
  const usdcUsdFeed = "0x00000000000000000000000000000000005eed01" as Address;
  await place(null, usdcUsdFeed, "PriceFeed", [8, "USDC / USD", A.keeper]);
  await place(null, safe, "OperatorSafe", [[operator, A.deployer, A.keeper], 2]);
  await send(A.keeper, net.feeds.ethUsd!.address, "PriceFeed", "submit", [3_100n * 10n ** 8n]);
  await send(A.keeper, net.feeds.wstETHRate!.address, "PriceFeed", "submit", [parseEther("1.2000")]);
  await send(A.keeper, usdcUsdFeed, "PriceFeed", "submit", [10n ** 8n]);
  for (const who of [A.user, A.lender, operator])
    await send(A.circle, usdcAddr, "FiatTokenV2", "mint", [who, usdc(2_000_000)]);

  const configurePsm = async (psm: Address, artifact: string) => {
    await send(safe, psm, artifact, "addStable", [usdcAddr, SWAP_FEE_BPS, usdc(10_000_000_000)]);
    await send(safe, psm, artifact, "setTieredFees", [usdcAddr, FEE_TIERS]);
    await send(safe, psm, artifact, "setMintingEnabled", [true]);
    if (artifact !== "KUSDPSMV1") {
      await send(safe, psm, artifact, "setTreasury", [r.treasury]);
      await send(safe, psm, artifact, "setSolvencyCheckDisabled", [true]);
      await send(safe, psm, artifact, "setOracle", [usdcAddr, usdcUsdFeed]);
      await send(safe, psm, artifact, "setMaxOracleDelay", [usdcAddr, 48n * 3_600n]);
    }
  };
  // The v3 and live PSMs' depeg gate wants a USDC / USD price at most 48 h old.
  const freshUsdcPrice = () => send(A.keeper, usdcUsdFeed, "PriceFeed", "submit", [10n ** 8n]);
  const mint = async (who: Address, psm: Address, amount: bigint) => {
    await freshUsdcPrice();
    await send(who, usdcAddr, "FiatTokenV2", "approve", [psm, amount]);
    await send(who, psm, "KUSDPSMV3", "swapStableForKUSD", [usdcAddr, amount]);
  };

  // 2026-04-08: kUSD, PSM v1 (the redeem reserve today) and vault v1.
  at(heightOf("2026-04-08T06:00:00Z"));
  await place("kUSD", kUSD.address, "KUSD", [safe]);
  await place("psmRedeemReserve", psms.psmRedeemReserve.address, "KUSDPSMV1", [kUSD.address, safe]);
  await configurePsm(psms.psmRedeemReserve.address, "KUSDPSMV1");
  await send(safe, kUSD.address, "KUSD", "grantRole", [MINTER_ROLE, psms.psmRedeemReserve.address]);
  await place("vaultV1", depositVaults.vaultV1.address, "KerneVaultV1", [
    net.weth.address,
    "Kerne Vault",
    "kVAULT",
    safe,
    operator,
    operator,
  ]);
  at(heightOf("2026-04-10T12:00:00Z"));
  await mint(A.user, psms.psmRedeemReserve.address, usdc(300_000));

  // 2026-05-11: skUSD v1.
  at(heightOf("2026-05-11T06:00:00Z"));
  await place("skUSDDeprecated", stakingVaults.skUSDDeprecated.address, "StakedKUSDV1", [kUSD.address, safe]);
  await send(A.user, kUSD.address, "KUSD", "approve", [stakingVaults.skUSDDeprecated.address, parseEther("50000")]);
  await send(A.user, stakingVaults.skUSDDeprecated.address, "StakedKUSDV1", "deposit", [parseEther("50000"), A.user]);

  // 2026-06-16 ceremony: treasury v3, insurance fund, the v3 mint PSM, vault v2; PSM v1 stops minting.
  at(heightOf("2026-06-16T06:00:00Z"));
  await place(null, r.treasury, "KerneTreasury", [A.deployer, A.deployer, A.deployer], safe);
  await place(null, r.insuranceFund, "KerneInsuranceFund", [usdcAddr, safe]);
  await place("psmRetiredMint", psms.psmRetiredMint.address, "KUSDPSMV3", [kUSD.address, safe]);
  await configurePsm(psms.psmRetiredMint.address, "KUSDPSMV3");
  await send(safe, kUSD.address, "KUSD", "grantRole", [MINTER_ROLE, psms.psmRetiredMint.address]);
  await send(safe, kUSD.address, "KUSD", "revokeRole", [MINTER_ROLE, psms.psmRedeemReserve.address]);
  await place("vaultV2", depositVaults.vaultV2.address, "KerneVault", [
    net.weth.address,
    "Kerne Vault",
    "kVAULT",
    safe,
    operator,
    operator,
  ]);
  at(heightOf("2026-06-20T12:00:00Z"));
  await mint(A.user, psms.psmRetiredMint.address, usdc(100_000));

  // 2026-07-03, skUSD at its published deploy block; stakers move over.
  at(48_175_381 - 1); // the creation transaction lands on the published block
  await place("skUSD", stakingVaults.skUSD.address, "StakedKUSD", [kUSD.address, safe]);
  await send(A.user, stakingVaults.skUSDDeprecated.address, "StakedKUSDV1", "redeem", [
    await sharesOf(d, stakingVaults.skUSDDeprecated.address, A.user),
    A.user,
    A.user,
  ]);
  await send(A.user, kUSD.address, "KUSD", "approve", [stakingVaults.skUSD.address, parseEther("200000")]);
  await send(A.user, stakingVaults.skUSD.address, "StakedKUSD", "deposit", [parseEther("200000"), A.user]);

  // 2026-07-10: the live mint PSM redeployed from the audited commit.
  at(heightOf("2026-07-10T06:00:00Z"));
  await place("psmMint", psms.psmMint.address, "KUSDPSM", [kUSD.address, safe]);
  await configurePsm(psms.psmMint.address, "KUSDPSM");
  await send(safe, kUSD.address, "KUSD", "grantRole", [MINTER_ROLE, psms.psmMint.address]);
  await send(safe, kUSD.address, "KUSD", "revokeRole", [MINTER_ROLE, psms.psmRetiredMint.address]);

  // The operator distributes staking yield through the Safe.
  await mint(operator, psms.psmMint.address, usdc(20_000));
  await send(operator, kUSD.address, "KUSD", "transfer", [safe, parseEther("5000")]);
  await send(safe, kUSD.address, "KUSD", "approve", [stakingVaults.skUSD.address, parseEther("5000")]);
  at(heightOf("2026-07-20T00:00:00Z"));
  await send(safe, stakingVaults.skUSD.address, "StakedKUSD", "distributeYield", [parseEther("2500")]);

  // 2026-08-06, block 49,623,130: kUSD and the PSMs move to the 48 h timelock; the guardian can pause.
  at(49_623_130 - 40);
  await place(null, timelock, "Timelock", [172_800n, [safe], [safe], "0x0000000000000000000000000000000000000000"]);
  await place(null, guardian, "PauseGuardian", [
    safe,
    [psms.psmMint.address, psms.psmRetiredMint.address, psms.psmRedeemReserve.address],
  ]);
  at(49_623_130);
  for (const target of [
    kUSD.address,
    psms.psmMint.address,
    psms.psmRetiredMint.address,
    psms.psmRedeemReserve.address,
  ]) {
    await send(safe, target, "KUSD", "grantRole", [DEFAULT_ADMIN_ROLE, timelock]);
  }
  for (const psm of Object.values(psms))
    await send(safe, psm.address, "KUSDPSMV3", "grantRole", [MANAGER_ROLE, guardian]);
  for (const target of [
    kUSD.address,
    psms.psmMint.address,
    psms.psmRetiredMint.address,
    psms.psmRedeemReserve.address,
  ]) {
    await send(safe, target, "KUSD", "renounceRole", [DEFAULT_ADMIN_ROLE, safe]);
  }

  // 2026-08-09, block 49,726,126: the operator's Euler market; a lender supplies USDC.
  at(49_726_126); // placeContract mines this block first: the market's code shows from it
  await place(
    null,
    lending.lendingUSDC!.address,
    "EVKVault",
    [usdcAddr, "EVK Vault eUSDC-116", "eUSDC-116", safe, 500n],
    A.deployer,
  );
  await place(
    null,
    lending.lendingEscrowKUSD!.address,
    "EVKVault",
    [kUSD.address, "EVK Vault ekUSD-1", "ekUSD-1", safe, 0n],
    A.deployer,
  );
  await send(A.lender, usdcAddr, "FiatTokenV2", "approve", [lending.lendingUSDC!.address, usdc(150_000)]);
  await send(A.lender, lending.lendingUSDC!.address, "EVKVault", "deposit", [usdc(150_000), A.lender]);
  await send(A.user, kUSD.address, "KUSD", "approve", [lending.lendingEscrowKUSD!.address, parseEther("25000")]);
  await send(A.user, lending.lendingEscrowKUSD!.address, "EVKVault", "deposit", [parseEther("25000"), A.user]);

  // A redemption on the live PSM, and protocol revenue landing in the treasury.
  at(heightOf("2026-08-20T12:00:00Z"));
  await freshUsdcPrice();
  await send(A.user, kUSD.address, "KUSD", "approve", [psms.psmMint.address, parseEther("10000")]);
  await send(A.user, psms.psmMint.address, "KUSDPSM", "swapKUSDForStable", [usdcAddr, parseEther("10000")]);
  await send(A.circle, usdcAddr, "FiatTokenV2", "mint", [r.treasury, usdc(50_000)]);

  // 2026-10-01: the treasury pays an address the registry does not list: a violation.
  const violationHeight = heightOf("2026-10-01T09:00:00Z");
  at(violationHeight);
  await send(r.treasury, usdcAddr, "FiatTokenV2", "transfer", [A.outsider, usdc(1_234)]);
  facts.violation = { from: r.treasury, to: A.outsider, amount: usdc(1_234), height: violationHeight };

  // The last ten days before the head: the wstETH / stETH rate and ETH / USD, once a day.
  const base = parseEther("1.2150");
  for (let i = 10; i >= 1; i--) {
    const t = headTime - i * 86_400;
    const rate = base + (base * BigInt(11 - i) * 82n) / 1_000_000n; // about 3 % a year
    d.at(t);
    await send(A.keeper, net.feeds.wstETHRate!.address, "PriceFeed", "submit", [rate]);
    facts.wstEthRates.push({ t: d.now - 2, rate });
    await send(A.keeper, net.feeds.ethUsd!.address, "PriceFeed", "submit", [BigInt(3_000 + 10 * i) * 10n ** 8n]);
    await send(A.keeper, usdcUsdFeed, "PriceFeed", "submit", [10n ** 8n]);
  }
  d.at(headTime);
  await d.mineEmpty(1);
  facts.headHeight = baseBlockAt(d.now - 2);
  return facts;
}

async function sharesOf(d: ChainDriver, vault: Address, who: Address): Promise<bigint> {
  return (await d.client.readContract({
    address: vault,
    abi: loadArtifact("StakedKUSDV1").abi,
    functionName: "balanceOf",
    args: [who],
  })) as bigint;
}
