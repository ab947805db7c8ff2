import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { getAddress } from "viem";
import { BASE_DEPLOYMENTS, baseNetwork } from "../src/networks/base.js";
import { operatorOwnedAddresses } from "../api/paid/operator-owned.js";
import { baseBlockAt, baseBlockOnDate } from "../src/networks/base-blocks.js";
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

  it("refuses instant reads of every address in the operator's registry file, and indexes its Euler market from its block", () => {
    const net = baseNetwork(env);
    const refused = operatorOwnedAddresses(net);
    const addresses = [
      ...Object.values(registry.contracts).map((c: any) => c.address),
      ...Object.entries(registry.retired).filter(([k]) => !k.startsWith("_")).map(([, v]) => v),
      registry.admin.safe, registry.admin.timelock, registry.admin.pauseGuardian,
    ] as string[];
    for (const a of addresses) expect(refused.has(a.toLowerCase()), a).toBe(true);
    expect(refused.has(registry.externalTokens.USDC.toLowerCase())).toBe(false);
    expect(net.lending).toEqual({
      lendingUSDC: { address: "0xe87c294E1139C31770727193e3Be0ccEd73d6AA3", startBlock: 49_726_126 },
      lendingEscrowKUSD: { address: "0xD3800ceb6bBeB90101ed5d5A46017fE846c9509e", startBlock: 49_726_126 },
    });
  });

  it("starts every contract at or before its deployment, from exact blocks or the deployment day's first block", () => {
    const net = baseNetwork(env);
    // The formula reproduces the registry's blocks: the handover (executed 2026-08-06T17:00:07Z)
    // and the Euler market's block falls on its published day, 2026-08-09.
    expect(baseBlockAt(Date.parse("2026-08-06T17:00:07Z") / 1000)).toBe(49_623_130);
    expect(baseBlockOnDate("2026-08-09")).toBeLessThanOrEqual(49_726_126);
    expect(baseBlockOnDate("2026-08-10")).toBeGreaterThan(49_726_126);
    // skUSD starts exactly at its published deploy block (the old estimate, 48,132,020, read it before it existed).
    expect(net.stakingVaults.skUSD.startBlock).toBe(48_175_381);
    // kUSD was deployed 2026-04-08: nothing of the protocol starts before that day's first block.
    const kusdStart = baseBlockOnDate("2026-04-08");
    expect(net.kUSD.startBlock).toBe(kusdStart);
    const all = [...Object.values(net.psms), ...Object.values(net.stakingVaults), ...Object.values(net.depositVaults)];
    for (const x of all) expect(x.startBlock, x.address).toBeGreaterThanOrEqual(kusdStart);
    // Each start is the first block of a day on or before the published deployment (or the block itself).
    const published: Record<string, number> = {
      [net.psms.psmMint.address]: baseBlockOnDate("2026-07-11"),
      [net.psms.psmRetiredMint.address]: 47_462_420, // the 2026-06-16 ceremony's treasury v3 block
      [net.depositVaults.vaultV2.address]: 47_462_420,
      [net.stakingVaults.skUSDDeprecated.address]: baseBlockOnDate("2026-05-12"),
      [net.stakingVaults.skUSD.address]: 48_175_381,
    };
    for (const [address, deployedBy] of Object.entries(published)) {
      expect(all.find((x) => x.address === address)!.startBlock, address).toBeLessThanOrEqual(deployedBy);
    }
    // The creation transaction of every indexed contract the operator's mirror names is recorded.
    for (const d of Object.values(BASE_DEPLOYMENTS)) {
      if (d.creationTx !== null) expect(d.creationTx).toMatch(/^0x[0-9a-f]{64}$/);
      expect(all.map((x) => x.address).concat(net.kUSD.address)).toContain(d.address);
    }
    expect(Object.values(BASE_DEPLOYMENTS).filter((d) => d.creationTx === null).map((d) => d.address)).toEqual([net.psms.psmMint.address]);
  });
});
