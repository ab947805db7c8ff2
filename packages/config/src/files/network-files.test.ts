import { readFileSync } from "node:fs";
import { baseBlockAt, baseBlockOnDate } from "@kusd/core";
import { getAddress } from "viem";
import { describe, expect, it } from "vitest";
import { type NetworkDocument, NetworkDocumentError } from "../document.js";
import { readServiceEnv } from "../env.js";
import { networkFromDocument } from "../from-document.js";
import { BASE_OPERATOR_REGISTRY_FILE, networkDocument, selectNetwork } from "./network-files.js";

// The operator's registry file as committed (test:fidelity checks it equals ../shared's copy).
const registry = JSON.parse(readFileSync(BASE_OPERATOR_REGISTRY_FILE, "utf8"));
const raw = {
  KUSD_NETWORK: "base",
  PONDER_RPC_URL_8453: "https://base.example",
  KUSD_READ_RPC_URL_1: "https://eth.example",
};
const env = readServiceEnv(raw);
const base = () => selectNetwork(env);
const select = (e: Record<string, string>) => selectNetwork(readServiceEnv(e));

describe("network selection", () => {
  it("refuses an unknown network and a base config without RPC URLs", () => {
    expect(() => select({ KUSD_NETWORK: "sepolia" })).toThrow(/KUSD_NETWORK must be "devnet" or "base"/);
    expect(() => select({ KUSD_NETWORK: "base" })).toThrow(/PONDER_RPC_URL_8453/);
    expect(() => select({ KUSD_NETWORK: "base", PONDER_RPC_URL_8453: "https://base.example" })).toThrow(
      /KUSD_READ_RPC_URL_1/,
    );
    expect(() => select({ ...raw, KUSD_ETH_GET_LOGS_BLOCK_RANGE: "ten" })).toThrow(/KUSD_ETH_GET_LOGS_BLOCK_RANGE/);
  });

  it("indexes the operator's published Base addresses, read from its file by name", () => {
    const net = base();
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
    expect(net.reporting.multisig).toBe(getAddress(registry.admin.safe));
    expect(net.reporting.timelock).toBe(getAddress(registry.admin.timelock));
    expect(net.reporting.treasury).toBe(getAddress(registry.contracts.KerneTreasury.address));
    expect(net.registryAccounts).toContain(getAddress(registry.admin.safe));
    // Only base is followed; its polling and getLogs range are configurable.
    expect(net.chains.base).toMatchObject({ id: 8453, pollingIntervalMs: 2_000, ethGetLogsBlockRange: null });
    expect(
      select({ ...raw, KUSD_ETH_GET_LOGS_BLOCK_RANGE: "2000", KUSD_POLLING_INTERVAL_MS: "500" }).chains.base,
    ).toMatchObject({ pollingIntervalMs: 500, ethGetLogsBlockRange: 2_000 });
  });

  it("follows a newer copy of the operator's file without a release, and refuses a document naming what is not in it", () => {
    const doc = networkDocument(env);
    const moved = structuredClone(doc);
    moved.contracts.skUSD!.address = "0x000000000000000000000000000000000000dEaD";
    expect(networkFromDocument(moved, env).stakingVaults.skUSD.address).toBe(
      "0x000000000000000000000000000000000000dEaD",
    );
    const broken: NetworkDocument = structuredClone(doc);
    delete (broken.contracts as Record<string, unknown>).KUSDPSM;
    expect(() => networkFromDocument(broken, env)).toThrow(NetworkDocumentError);
    expect(() => networkFromDocument(broken, env)).toThrow(/contracts\.KUSDPSM/);
  });

  it("names the operator's other contracts and indexes its Euler market from its block", () => {
    const net = base();
    for (const name of ["KERNE", "esKERNE", "KerneStaking", "KerneYieldOracle"])
      expect(net.otherOperatorContracts).toContain(getAddress(registry.contracts[name].address));
    expect(net.otherOperatorContracts).toContain(getAddress(registry.retired.kUSD_v1));
    expect(net.lending).toEqual({
      lendingUSDC: { address: "0xe87c294E1139C31770727193e3Be0ccEd73d6AA3", startBlock: 49_726_126 },
      lendingEscrowKUSD: { address: "0xD3800ceb6bBeB90101ed5d5A46017fE846c9509e", startBlock: 49_726_126 },
    });
  });

  it("configures the staking yield from an on-chain wstETH / stETH rate and prices ETH with a cited feed", () => {
    const net = base();
    expect(net.lsts.wstETH).toMatchObject({
      kind: "exchange-rate-feed",
      address: "0xB88BAc61a4Ca37C43a3725912B1f472c9A5bc061",
      intervalBlocks: 1_800,
    });
    expect(net.feeds.wstETHRate).toMatchObject({ description: "wstETH-stETH Exchange Rate", decimals: 18 });
    expect(net.feeds.ethUsd).toMatchObject({
      address: "0x71041dddad3595F9CEd3DcCFBe3D1F4b0a16Bb70",
      description: "ETH / USD",
      decimals: 8,
    });
    expect(net.reporting.ethUsdFeed).toBe(net.feeds.ethUsd!.address);
    for (const f of Object.values(net.feeds)) expect(f.source).toMatch(/compound-finance\/comet/);
  });

  it("starts every contract at or before its deployment, from exact blocks or the deployment day's first block", () => {
    const net = base();
    // The formula reproduces the registry's blocks: the handover (executed 2026-08-06T17:00:07Z)
    // and the Euler market's block falls on its published day, 2026-08-09.
    expect(baseBlockAt(Date.parse("2026-08-06T17:00:07Z") / 1000)).toBe(49_623_130);
    expect(baseBlockOnDate("2026-08-09")).toBeLessThanOrEqual(49_726_126);
    expect(baseBlockOnDate("2026-08-10")).toBeGreaterThan(49_726_126);
    // skUSD starts exactly at its published deploy block (the old estimate, 48,132,020, read it before it existed).
    expect(net.stakingVaults.skUSD.startBlock).toBe(48_175_381);
    const kusdStart = baseBlockOnDate("2026-04-08");
    expect(net.kUSD.startBlock).toBe(kusdStart);
    // Published deployment facts: each contract's start is at or before them.
    const deployedBy: Record<string, number> = {
      kUSD: baseBlockOnDate("2026-04-09") - 1,
      psmRedeemReserve: Infinity, // no published date; its constructor names kUSD, checked against kUSD below
      vaultV1: Infinity,
      skUSDDeprecated: baseBlockOnDate("2026-05-12") - 1,
      psmRetiredMint: 47_462_420, // the 2026-06-16 ceremony, whose treasury v3 is block 47,462,420
      vaultV2: 47_462_420,
      psmMint: baseBlockOnDate("2026-07-11") - 1,
      skUSD: 48_175_381,
      lendingUSDC: 49_726_126,
      lendingEscrowKUSD: 49_726_126,
    };
    expect(net.deployments.map((d) => d.role).sort()).toEqual(Object.keys(deployedBy).sort());
    for (const d of net.deployments) {
      expect(d.startBlock, d.role).toBeLessThanOrEqual(deployedBy[d.role]!);
      expect(d.startBlock, d.role).toBeGreaterThanOrEqual(kusdStart);
      expect(d.source.length, d.role).toBeGreaterThan(10);
      if (d.creationTx !== null) expect(d.creationTx).toMatch(/^0x[0-9a-f]{64}$/);
    }
    // Every creation transaction the operator's mirror names is recorded; the live PSM's is not
    // in the mirror, and the lending market is not the operator's deployment record.
    expect(
      net.deployments
        .filter((d) => d.creationTx === null)
        .map((d) => d.role)
        .sort(),
    ).toEqual(["lendingEscrowKUSD", "lendingUSDC", "psmMint"]);
  });
});
