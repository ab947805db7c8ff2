import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { getAddress } from "viem";
import { baseNetwork } from "../src/networks/base.js";
import { selectNetwork, UnknownNetworkError } from "../src/networks/index.js";

const registry = JSON.parse(
  readFileSync(join(import.meta.dirname, "..", "..", "shared", "reference", "base-mainnet", "deployments-8453.json"), "utf8"),
);
const env = { PONDER_RPC_URL_8453: "https://base.example", PONDER_RPC_URL_1: "https://eth.example" };

describe("network selection", () => {
  it("refuses an unknown network and a base config without RPC URLs", () => {
    expect(() => selectNetwork({ KUSD_NETWORK: "sepolia" })).toThrow(UnknownNetworkError);
    expect(() => baseNetwork({})).toThrow(/PONDER_RPC_URL_8453/);
  });

  it("indexes the operator's published Base addresses", () => {
    const net = baseNetwork(env);
    expect(net.kUSD.address).toBe(getAddress(registry.contracts.kUSD.address));
    expect(net.psms.psmMint.address).toBe(getAddress(registry.contracts.KUSDPSM.address));
    expect(net.psms.psmRetiredMint.address).toBe(getAddress(registry.retired.KUSDPSM_2026_06_16_redeemReserve));
    expect(net.psms.psmRedeemReserve.address).toBe(getAddress(registry.retired.KUSDPSM_v1_redeemReserve));
    expect(net.stakingVaults.skUSD.address).toBe(getAddress(registry.contracts.skUSD.address));
    expect(net.stakingVaults.skUSDDeprecated.address).toBe(getAddress(registry.retired.skUSD_v1));
    expect(net.depositVaults.vaultV1.address).toBe(getAddress(registry.retired.KerneVault_v1));
    expect(net.depositVaults.vaultV2.address).toBe(getAddress(registry.contracts.KerneVault.address));
    expect(net.usdc.address).toBe(getAddress(registry.externalTokens.USDC));
    expect(net.weth.address).toBe(getAddress(registry.externalTokens.WETH));
    expect(net.registryAccounts).toContain(getAddress(registry.admin.safe));
  });

  it("starts the live mint PSM's history before its 2026-07-10 deployment and after the 2026-06-16 block", () => {
    const net = baseNetwork(env);
    // Base makes a block every 2 s; 47,462,420 is the registry's block of 2026-06-16.
    expect(net.psms.psmMint.startBlock).toBeGreaterThan(47_462_420);
    expect(net.psms.psmMint.startBlock).toBeLessThan(47_462_420 + 24 * 86_400 / 2);
  });
});
