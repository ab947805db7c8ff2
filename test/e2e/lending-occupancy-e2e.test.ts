/**
 * GET /api/euler on the shared devnet, mounted in process (no indexer database): every figure
 * equals an independent viem read at the pinned block or a hand computation from such reads,
 * every verifyVia command run with foundry's cast returns the raw value it names, a read that
 * fails is null and listed (200, never a 5xx), and a bad block is 4xx JSON.
 */

import { readServiceEnv } from "@kusd/config";
import { selectNetwork } from "@kusd/config/node";
import { type Address, formatUnits, getAddress, parseAbiItem, toFunctionSelector } from "viem";
import { afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import { createReportContext } from "../../api/context.js";
import { withApiErrors } from "../../api/http/errors.js";
import { lendingRoutes } from "../../api/lending/routes.js";
import { runPrinted } from "../helpers/cast.js";
import { stack } from "../helpers/stack.js";

const s = stack();
const d = s.deployment;
/** Last block of the scripted history: before any block a live test adds or reorgs. */
const PINNED = d.chains.base.historyEndBlock;
const USDC_VAULT = getAddress(s.addr("lendingUSDC"));
const ESCROW = getAddress(s.addr("lendingEscrowKUSD"));
const OPERATOR = getAddress(d.signers.operator);
const units = (x: bigint, dec: number) => Number(formatUnits(x, dec));

async function read<T>(address: Address, fn: string, args: unknown[] = []): Promise<T> {
  const m = /^(\w+)\(([^()]*)\)\((.*)\)$/.exec(fn)!;
  const abi = [parseAbiItem(`function ${m[1]}(${m[2]}) view returns (${m[3]})`)];
  return (await s.client.readContract({
    address,
    abi,
    functionName: m[1]!,
    args,
    blockNumber: BigInt(PINNED),
  } as never)) as T;
}

const network = selectNetwork(readServiceEnv(process.env));
const app = withApiErrors(lendingRoutes(createReportContext(network, undefined as never, "http://site.test")));
const get = async (path: string, via = app) => {
  const res = await via.request(path);
  expect(res.headers.get("content-type")).toMatch(/application\/json/);
  return { status: res.status, body: (await res.json()) as any };
};

describe("GET /api/euler at the end of the scripted history", () => {
  let report: any;
  beforeAll(async () => {
    const res = await get(`/api/euler?block=${PINNED}`);
    expect(res.status).toBe(200);
    report = res.body;
  });

  it("names the market, the block and its time", async () => {
    const block = await s.client.getBlock({ blockNumber: BigInt(PINNED) });
    expect(report.blockNumber).toBe(PINNED);
    expect(report.timestamp).toBe(new Date(Number(block.timestamp) * 1000).toISOString());
    expect(report.failedReads).toEqual([]);
    const governor = await read<Address>(USDC_VAULT, "governorAdmin()(address)");
    const ltv = await read<number>(USDC_VAULT, "LTVBorrow(address)(uint16)", [ESCROW]);
    expect(report.market).toMatchObject({
      venue: "euler",
      kind: "EVK isolated market",
      lendingVault: USDC_VAULT,
      escrowVault: ESCROW,
      governor,
      borrowLTVBps: ltv,
      borrowLTV: ltv / 10_000,
    });
    // The devnet's curator (lendingGovernor) is not the operator.
    expect(report.market.governedByOperator).toBe(false);
    expect(ltv).toBe(8500);
  });

  it("lending vault: supply, borrows, cash and utilization equal direct reads and the hand computation", async () => {
    const [assets, borrows, cash, shares, rate, asset] = await Promise.all([
      read<bigint>(USDC_VAULT, "totalAssets()(uint256)"),
      read<bigint>(USDC_VAULT, "totalBorrows()(uint256)"),
      read<bigint>(USDC_VAULT, "cash()(uint256)"),
      read<bigint>(USDC_VAULT, "totalSupply()(uint256)"),
      read<bigint>(USDC_VAULT, "interestRate()(uint256)"),
      read<Address>(USDC_VAULT, "asset()(address)"),
    ]);
    const v = report.lendingVault;
    expect(v.assetAddress).toBe(getAddress(s.addr("usdc")));
    expect(asset).toBe(v.assetAddress);
    expect(v.totalSupplyUSDCRaw).toBe(assets.toString());
    expect(v.totalSupplyUSDC).toBe(units(assets, 6));
    expect(v.totalBorrowsUSDCRaw).toBe(borrows.toString());
    expect(v.totalBorrowsUSDC).toBe(units(borrows, 6));
    expect(v.cashUSDCRaw).toBe(cash.toString());
    expect(v.cashUSDC).toBe(units(cash, 6));
    expect(v.totalSharesRaw).toBe(shares.toString());
    expect(cash + borrows).toBe(assets); // EVK identity
    // The history: 30,000 USDC supplied, 9,000 borrowed, plus interest accrued since.
    expect(borrows).toBeGreaterThanOrEqual(9_000_000_000n);
    expect(cash).toBe(21_000_000_000n);
    const util = units(borrows, 6) / units(assets, 6);
    expect(v.utilization).toBeCloseTo(util, 14);
    expect(v.utilizationPct).toBe(`${(util * 100).toFixed(2)}%`);
    expect(v.interestRatePerSecondRay).toBe(rate.toString());
    expect(v.borrowAPR).toBeCloseTo((Number(rate) * 31_536_000) / 1e27, 14);
    expect(v.borrowAPRPct).toBe("6.00%"); // deployed at 600 bps a year
  });

  it("the operator's supply: its shares converted to assets, as a fraction of totalAssets; and its own debt", async () => {
    const shares = await read<bigint>(USDC_VAULT, "balanceOf(address)(uint256)", [OPERATOR]);
    const assets = await read<bigint>(USDC_VAULT, "convertToAssets(uint256)(uint256)", [shares]);
    const total = await read<bigint>(USDC_VAULT, "totalAssets()(uint256)");
    const debt = await read<bigint>(USDC_VAULT, "debtOf(address)(uint256)", [OPERATOR]);
    const o = report.operatorSupply;
    expect(o.account).toBe(OPERATOR);
    expect(o.sharesRaw).toBe(shares.toString());
    expect(shares).toBe(30_000_000_000n); // the first deposit mints shares 1:1
    expect(o.suppliedUSDCRaw).toBe(assets.toString());
    expect(o.suppliedUSDC).toBe(units(assets, 6));
    expect(o.shareOfSupply).toBeCloseTo(units(assets, 6) / units(total, 6), 14);
    expect(o.shareOfSupplyPct).toBe(`${((units(assets, 6) / units(total, 6)) * 100).toFixed(2)}%`);
    expect(o.debtUSDCRaw).toBe(debt.toString());
    expect(debt).toBe(0n);
  });

  it("escrow vault: total kUSD escrowed and the operator's own escrow equal direct reads", async () => {
    const total = await read<bigint>(ESCROW, "totalAssets()(uint256)");
    const totalShares = await read<bigint>(ESCROW, "totalSupply()(uint256)");
    const shares = await read<bigint>(ESCROW, "balanceOf(address)(uint256)", [OPERATOR]);
    const assets = await read<bigint>(ESCROW, "convertToAssets(uint256)(uint256)", [shares]);
    const e = report.escrowVault;
    expect(e.assetAddress).toBe(getAddress(s.addr("kUSD")));
    expect(e.totalEscrowedKUSDWei).toBe(total.toString());
    expect(e.totalEscrowedKUSD).toBe(units(total, 18));
    expect(e.totalSharesRaw).toBe(totalShares.toString());
    expect(e.operatorSharesRaw).toBe(shares.toString());
    expect(e.operatorEscrowedKUSDWei).toBe(assets.toString());
    expect(e.operatorEscrowedKUSD).toBe(units(assets, 18));
    // The history: the operator escrows 20,000 kUSD, the borrower the 14,985 its 15,000 USDC minted (10 bps).
    expect(assets).toBe(20_000n * 10n ** 18n);
    expect(total).toBe(34_985n * 10n ** 18n);
    expect(e.operatorShareOfEscrow).toBeCloseTo(20_000 / 34_985, 14);
    expect(e.operatorShareOfEscrowPct).toBe("57.17%"); // 20,000 / 34,985
  });

  it("every verifyVia command, run with cast, returns the raw value it names", async () => {
    const commands: string[] = report.verifyVia;
    expect(commands).toHaveLength(17);
    for (const full of commands) {
      const [cmd, note = ""] = full.split("  # ");
      expect(cmd).toMatch(new RegExp(`^cast (call .* --block ${PINNED}|block ${PINNED} --field timestamp) --rpc-url `));
      const raw = / = (.+?)(?: \(\d+ decimals\))?$/.exec(note)?.[1];
      expect(raw, full).toBeDefined();
      const { stdout } = await runPrinted(full); // as printed, through bash
      const out = stdout.trim().split(/\s+/)[0]!;
      expect(/^0x[0-9a-fA-F]+$/.test(out) && out.length !== 42 ? BigInt(out).toString() : out, full).toBe(raw);
    }
  }, 120_000);
});

describe("GET /api/euler: defaults and errors", () => {
  const rpcProxyUrl = inject("rpcProxyUrl");
  const setFaults = (faults: unknown[]) =>
    fetch(`${rpcProxyUrl}/__proxy/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(faults),
    });
  afterEach(async () => {
    await setFaults([]);
  });

  it("without ?block reads at the RPC's latest block", async () => {
    const head = Number(await s.client.getBlockNumber({ cacheTime: 0 }));
    const { status, body } = await get("/api/euler");
    expect(status).toBe(200);
    expect(body.blockNumber).toBeGreaterThanOrEqual(head);
    expect(body.failedReads).toEqual([]);
  });

  it("a bad block is 4xx JSON", async () => {
    const head = Number(await s.client.getBlockNumber({ cacheTime: 0 }));
    const first = Math.max(
      d.chains.base.contracts.lendingUSDC!.block,
      d.chains.base.contracts.lendingEscrowKUSD!.block,
    );
    const cases: [string, number, string][] = [
      ["abc", 400, "invalid_block"],
      ["0x10", 400, "invalid_block"],
      [String(head + 1_000), 422, "block_not_mined"],
      [String(first - 1), 400, "block_before_deployment"],
    ];
    for (const [block, status, code] of cases) {
      const res = await get(`/api/euler?block=${block}`);
      expect(res.status, block).toBe(status);
      expect(res.body.error.code).toBe(code);
    }
  });

  it("a read that fails is null and listed in failedReads, and the report is still 200", async () => {
    const proxied = {
      ...network,
      reporting: { ...network.reporting, readRpc: { ...network.reporting.readRpc, base: rpcProxyUrl } },
    };
    const viaProxy = withApiErrors(lendingRoutes(createReportContext(proxied, undefined as never, "http://site.test")));
    await setFaults([{ selector: toFunctionSelector("totalBorrows()"), to: USDC_VAULT, mode: "error" }]);
    const { status, body } = await get(`/api/euler?block=${PINNED}`, viaProxy);
    expect(status).toBe(200);
    expect(body.lendingVault.totalBorrowsUSDC).toBeNull();
    expect(body.lendingVault.totalBorrowsUSDCRaw).toBeNull();
    expect(body.lendingVault.utilization).toBeNull();
    expect(body.lendingVault.totalSupplyUSDC).toBe(units(await read<bigint>(USDC_VAULT, "totalAssets()(uint256)"), 6)); // the other reads stand
    expect(body.failedReads).toHaveLength(1);
    expect(body.failedReads[0]).toContain("totalBorrows()(uint256)");
    expect(body.verifyVia).toHaveLength(16);
    // The commands still print the public RPC, never the proxy the reads went through.
    expect(body.verifyVia.join("\n")).not.toContain(rpcProxyUrl);
  });
});
