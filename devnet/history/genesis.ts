/**
 * 2026-05-14, genesis: the external tokens and feeds (USDC, WETH, the LSTs, ETH / USD and USDC /
 * USD), then the protocol (the Safe, kUSD, treasury v1, the insurance fund, PSM v1 as the only
 * minter, skUSD v1, vault v1), and the founder's seed positions.
 */
import { maxUint256, parseEther, zeroAddress } from "viem";
import { DATES, HOUR } from "../timeline.js";
import { DEFAULT_ADMIN_ROLE, kusd, MINTER_ROLE, STRATEGIST_ROLE, usdc } from "./constants.js";
import type { Chapter } from "./writer.js";

export const genesis: Chapter = (h) => {
  const k = h.keys;
  h.schedule(DATES.genesis, "external tokens", async () => {
    await h.deploy("usdc", "FiatTokenV2", k.circle, [k.circle.address]);
    await h.deploy("weth", "WETH9", k.circle, []);
    await h.deploy("wstETH", "RatedLST", k.oracleKeeper, [
      "Wrapped liquid staked Ether 2.0",
      "wstETH",
      k.oracleKeeper.address,
      parseEther("1.2150"),
    ]);
    await h.deploy("cbETH", "RatedLST", k.oracleKeeper, [
      "Coinbase Wrapped Staked ETH",
      "cbETH",
      k.oracleKeeper.address,
      parseEther("1.0950"),
    ]);
    // The ETH / USD feed the reports price ETH with (Chainlink-style, 8 decimals).
    await h.deploy("ethUsdFeed", "PriceFeed", k.oracleKeeper, [8, "ETH / USD", k.oracleKeeper.address]);
    await h.deploy("usdcUsdFeed", "PriceFeed", k.oracleKeeper, [8, "USDC / USD", k.oracleKeeper.address]);
    await h.pushEthPrice();
    await h.deploy("venueBridge", "VenueBridge", k.venueOperator, [h.addr("usdc"), k.venueOperator.address]);
    await h.deploy("flashBorrower", "FlashBorrower", k.arbitrageur, []);
  });
  h.schedule(DATES.genesis, "protocol genesis", async () => {
    const dep = k.deployer;
    await h.deploy("multisig", "OperatorSafe", dep, [
      [k.operator.address, k.safeOwner2.address, k.safeOwner3.address],
      2n,
    ]);
    await h.deploy("kUSD", "KUSD", dep, [dep.address]);
    // kUSD's constructor makes its admin a minter too; the deployer gives that up at genesis.
    h.roles.push({
      role: "MINTER_ROLE",
      roleHash: MINTER_ROLE,
      contract: "kUSD",
      holder: dep.address,
      grantedBlock: h.contracts.kUSD!.block,
      revokedBlock: null,
    });
    await h.deploy("treasuryV1", "KerneTreasury", dep, [zeroAddress, zeroAddress, zeroAddress]);
    await h.send(dep, "treasuryV1", "transferOwnership", [h.addr("multisig")]);
    await h.deploy("insuranceFund", "KerneInsuranceFund", dep, [h.addr("usdc"), h.addr("multisig")]);
    await h.deployPsm("psmRedeemReserve", null);
    await h.grantMinter("deployer", "psmRedeemReserve");
    const renounced = await h.send(dep, "kUSD", "renounceRole", [MINTER_ROLE, dep.address]);
    h.roles.find((r) => r.holder === dep.address && r.role === "MINTER_ROLE")!.revokedBlock = Number(
      renounced.blockNumber,
    );
    await h.send(dep, "kUSD", "grantRole", [DEFAULT_ADMIN_ROLE, h.addr("multisig")]);
    await h.send(dep, "kUSD", "renounceRole", [DEFAULT_ADMIN_ROLE, dep.address]);
    await h.deploy("skUSDDeprecated", "StakedKUSDV1", dep, [h.addr("kUSD"), h.addr("multisig")]);
    await h.safe("skUSDDeprecated", "grantRole", [STRATEGIST_ROLE, k.operator.address]);
    await h.deploy("vaultV1", "KerneVaultV1", dep, [
      h.addr("weth"),
      "Kerne ETH Vault",
      "kETH",
      h.addr("multisig"),
      k.operator.address,
      k.operator.address,
    ]);
  });
  h.schedule(DATES.genesis + 2 * HOUR, "founder seeds", async () => {
    await h.mintFor(k.operator, usdc(400_000));
    await h.send(k.operator, "kUSD", "approve", [h.addr("skUSDDeprecated"), maxUint256]);
    await h.send(k.operator, "skUSDDeprecated", "deposit", [kusd(300_000), k.operator.address]);
    await h.send(k.operator, "weth", "deposit", [], parseEther("30"));
    await h.send(k.operator, "weth", "approve", [h.addr("vaultV1"), maxUint256]);
    await h.send(k.operator, "vaultV1", "deposit", [parseEther("25"), k.operator.address]);
    await h.send(k.operator, "vaultV1", "updateOffChainAssets", [parseEther("3")]);
    await h.send(k.operator, "vaultV1", "updateHedgingReserve", [parseEther("1.5")]);
    await h.send(k.hedgeWatchOnly, "weth", "deposit", [], parseEther("8"));
    // The external holder whose dust stays in the superseded vault.
    await h.mintFor(k.externalDustHolder, usdc(1_000));
    await h.send(k.externalDustHolder, "kUSD", "approve", [h.addr("skUSDDeprecated"), maxUint256]);
    // 1,000 USDC mints 999 kUSD (10 bps below 50,000 USDC): stake all of it.
    await h.send(k.externalDustHolder, "skUSDDeprecated", "deposit", [kusd(999), k.externalDustHolder.address]);
  });
};
