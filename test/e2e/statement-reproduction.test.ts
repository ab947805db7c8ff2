/**
 * Every figure a signed statement signs is reproducible at its report_block from what we publish:
 * statements are issued at the head (one with the venue failing, two at one block, one for a past
 * block), the chain moves on, and then every stored statement is walked and each signed figure is
 * compared with GET /api/por?block=<report_block> through a mapping written here (the reader's
 * recipe, not the signer's code), the venue equity with the reading the report discloses, and the
 * PSM USDC and kUSD supply with direct chain reads. A statement whose block was reorged away (other
 * files revert the devnet) is detected by its signed report_block_hash and not compared.
 */
import { type Address, getAddress, parseAbiItem } from "viem";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { stack } from "../helpers/stack.js";

const s = stack();
const token = inject("adminToken");
const api = async (path: string) => {
  const res = await fetch(`${s.indexerUrl}${path}`);
  expect(res.status, path).toBe(200);
  return (await res.json()) as any;
};
const issue = async (block?: number) => {
  const res = await fetch(`${s.indexerUrl}/api/por/signed${block === undefined ? "" : `?block=${block}`}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { attestation_hash: string; signed_payload_canonical: string };
};
const setFaults = (proxyUrl: string, faults: unknown[]) =>
  fetch(`${proxyUrl}/__proxy/faults`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(faults),
  });
const mine = async () => {
  await s.client.request({ method: "evm_mine" as never });
  return s.caughtUp();
};
const balanceOf = parseAbiItem("function balanceOf(address) view returns (uint256)");
const totalSupply = parseAbiItem("function totalSupply() view returns (uint256)");
const units = (raw: bigint, decimals: number) => Number(raw) / 10 ** decimals;
const r6 = (x: number | null) => (x === null ? null : Math.round(x * 1e6) / 1e6);

/** Every signed figure, and where a reader finds it in /api/por at the statement's block. */
function figures(r: any): Record<string, unknown> {
  const res = r.reserves;
  const l1 = res.vault.composition.l1Assets;
  const c = res.vault.composition;
  const v1Eth = [c.trackedOnChain.eth, c.offChainAssets.eth, l1.eth, c.hedgingReserve.eth];
  const legacy =
    v1Eth.every((x: number | null) => x !== null) && res.vault.totalSupplyShares
      ? r6(v1Eth.reduce((a: number, b: number) => a + b, 0) / res.vault.totalSupplyShares)
      : null;
  const psm =
    r.solvency.psmSolvent === null ? "PSM_UNKNOWN" : r.solvency.psmSolvent ? "PSM_SOLVENT" : "PSM_UNDER_BACKED";
  const equity = l1.liveVenueEquityUsd;
  const price = r.market.ethPriceUSD;
  const v2 = res.vaultV2;
  return {
    status: l1.reconciliationStatus === "reconciled" ? psm : `${psm}_VAULT_V1_DEGRADED_KNOWN`,
    aggregate_solvency_ratio: r.solvency.psmSolvencyRatio,
    aggregate_solvency_usd_ratio: r.solvency.aggregateCollateralRatio,
    aggregate_collateral_usd: r.solvency.collateralUSD,
    aggregate_liabilities_usd: r.solvency.liabilitiesUSD,
    psm_solvency_ratio: r.solvency.psmSolvencyRatio,
    psm_solvent: r.solvency.psmSolvent,
    is_solvent_resolved: r.solvency.psmSolvent !== null,
    psm_usdc_reserve: res.psm.usdcHeld,
    psm_kusd_held: res.psm.kusdHeld,
    psm_reads_available: res.psm.usdcHeld !== null && res.psm.kusdHeld !== null,
    "psm_reserves_usdc.psmMint": res.psmMint.usdcHeld,
    "psm_reserves_usdc.psmRetiredMint": res.psmRetiredMint.usdcHeld,
    "psm_reserves_usdc.psmRedeemReserve": res.psmRedeemReserve.usdcHeld,
    kusd_total_supply: r.liabilities.kUSD.totalSupply,
    outstanding_kusd: r.liabilities.kUSD.outstanding,
    eth_price_usd: price,
    insurance_fund_usd: res.insuranceFund.totalUSD,
    insurance_fund_usdc: res.insuranceFund.usdc,
    insurance_fund_weth: res.insuranceFund.weth,
    treasury_usd: res.treasury.totalUSD,
    treasury_usdc: res.treasury.usdc,
    treasury_weth: res.treasury.weth,
    safe_usd: res.multisig.totalUSD,
    safe_usdc: res.multisig.usdc,
    safe_weth: res.multisig.weth,
    legacy_vault_share_solvency_ratio: legacy,
    solvency_ratio: legacy,
    vault_v1_degraded_known: l1.reconciliationStatus !== "reconciled",
    total_assets_eth: v2.totalAssetsETH,
    "offchain.available": equity !== null,
    "offchain.equity_usd": equity,
    "offchain.equity_eth_equiv": equity !== null && price ? equity / price : null,
    "offchain.mirror_eth": l1.onChainMirror.eth,
    "offchain.reconciliation_status": l1.reconciliationStatus,
    "offchain.venue_time": equity !== null ? l1.venueRead.venueTime : null,
    "chains[0].chain_id": r.chainId,
    "chains[0].block_number": r.blockNumber,
    "chains[0].timestamp": Date.parse(r.timestamp) / 1000,
    "chains[0].rpc_healthy": r.attestation.failedReads.length === 0,
    "chains[0].vault_address": v2.address,
    "chains[0].total_assets_eth": v2.totalAssetsETH,
    "chains[0].total_assets_wei": v2.totalAssetsWei,
    "chains[0].total_supply_eth": v2.totalSupplyShares,
    "chains[0].solvency_ratio":
      v2.totalAssetsETH !== null && v2.totalSupplyShares ? v2.totalAssetsETH / v2.totalSupplyShares : null,
    "chains[0].minter_role_holds": v2.minterRole.holdsRole,
    "chains[0].minter_role_holder": v2.minterRole.holder,
    report_block: r.blockNumber,
    report_block_hash: r.blockHash,
    report_endpoint: r.attestation.canonicalEndpoint,
    network_document_sha256: r.pins.network.documentSha256,
  };
}

const at = (payload: any, path: string) =>
  path.split(".").reduce((o, k) => {
    const m = /^(\w+)\[(\d+)\]$/.exec(k);
    return m ? o?.[m[1]!]?.[Number(m[2])] : o?.[k];
  }, payload);

async function allStatements(): Promise<string[]> {
  const hashes: string[] = [];
  let next: string | null = `/api/por/signed/history?limit=500`;
  while (next) {
    const page = await api(next.replace(/^https?:\/\/[^/]+/, ""));
    hashes.push(...page.statements.map((x: { attestation_hash: string }) => x.attestation_hash));
    next = page.next;
  }
  return hashes;
}

const table: string[] = [];
afterAll(() => {
  console.log(["statement reproduction (every signed figure vs /api/por?block=report_block):", ...table].join("\n"));
});

beforeAll(async () => {
  await s.caughtUp();
  // At the head: a live venue read, recorded with the statement.
  await issue();
  const unrecorded = await mine();
  await mine();
  // Two statements at one block (a second apart, so they differ): the second reuses the first's reading.
  await issue();
  await new Promise((r) => setTimeout(r, 1_100));
  await issue();
  await mine();
  // The venue failing: the statement records the failure, and its block reproduces "unverified".
  await setFaults(inject("venueProxyUrl"), [{ mode: "http500" }]);
  await issue();
  await setFaults(inject("venueProxyUrl"), []);
  await mine();
  // A past block between two recorded readings: it takes the nearest before it.
  await issue(unrecorded);
  await mine();
}, 120_000);

describe("every stored statement is reproducible at its report_block", () => {
  it("each signed figure equals /api/por?block=report_block; the venue equity is the recorded reading; PSM USDC and supply equal the chain", async () => {
    const n = s.deployment.chains.base.contracts;
    const psms = ["psmMint", "psmRetiredMint", "psmRedeemReserve"].map((k) => getAddress(n[k]!.address));
    const usdc = getAddress(n.usdc!.address);
    const kusd = getAddress(n.kUSD!.address);
    let compared = 0;
    let orphaned = 0;
    const sources = new Set<string>();
    for (const hash of await allStatements()) {
      const statement = await api(`/api/por/signed/${hash}`);
      const payload = JSON.parse(statement.signed_payload_canonical);
      const block = BigInt(payload.report_block);
      const canonical = (await s.client.getBlock({ blockNumber: block })).hash;
      if (payload.report_block_hash !== canonical) {
        // Reorged away (another file reverted the devnet): the signed hash says so, and the report at that number reads another block.
        expect(payload.report_block_hash).toMatch(/^0x[0-9a-f]{64}$/);
        orphaned++;
        table.push(
          `${hash.slice(0, 10)} block ${block}: block reorged away since (signed hash ${String(payload.report_block_hash).slice(0, 10)}…, canonical ${canonical.slice(0, 10)}…): not comparable`,
        );
        continue;
      }
      const report = await api(`/api/por?block=${block}`);
      const expected = figures(report);
      const differing = Object.entries(expected).filter(
        ([path, value]) => JSON.stringify(at(payload, path)) !== JSON.stringify(value),
      );
      expect(
        differing.map(([p, v]) => `${p}: signed ${JSON.stringify(at(payload, p))}, reproduced ${JSON.stringify(v)}`),
        `statement ${hash} at block ${block}`,
      ).toEqual([]);
      // Every signed field is accounted for: the mapping above plus what is not a figure of the report.
      const notFigures = new Set([
        "schema_version",
        "timestamp",
        "aggregate_solvency_ratio_basis",
        "offchain",
        "offchain.venue",
        "chains",
        "chains[0].chain_name",
        "psm_reserves_usdc",
        "signer_role",
        "signer_binding",
        "signer_binding_hash",
      ]);
      const signedPaths = [
        ...Object.keys(payload),
        ...Object.keys(payload.offchain).map((k) => `offchain.${k}`),
        ...Object.keys(payload.chains[0]).map((k) => `chains[0].${k}`),
        ...Object.keys(payload.psm_reserves_usdc).map((k) => `psm_reserves_usdc.${k}`),
      ];
      expect(
        signedPaths.filter((p) => !(p in expected) && !notFigures.has(p)),
        "signed fields without a reproduction",
      ).toEqual([]);

      const venueRead = report.reserves.vault.composition.l1Assets.venueRead;
      sources.add(venueRead.source);
      if (payload.offchain.equity_usd !== null) {
        // The equity came from a reading a statement recorded at this block or nearest before it.
        expect(venueRead.source).toBe("recorded");
        expect(venueRead.recordedAtBlock).toBeLessThanOrEqual(Number(block));
      }
      const [usdcHeld, supply] = await Promise.all([
        Promise.all(
          psms.map((p) =>
            s.client.readContract({
              address: usdc,
              abi: [balanceOf],
              functionName: "balanceOf",
              args: [p as Address],
              blockNumber: block,
            }),
          ),
        ),
        s.client.readContract({ address: kusd, abi: [totalSupply], functionName: "totalSupply", blockNumber: block }),
      ]);
      expect(payload.psm_usdc_reserve).toBeCloseTo(
        units(
          usdcHeld.reduce((a, b) => a + b, 0n),
          6,
        ),
        6,
      );
      expect(payload.kusd_total_supply).toBeCloseTo(units(supply, 18), 6);
      compared++;
      table.push(
        `${hash.slice(0, 10)} block ${block}: ${Object.keys(expected).length} figures equal; venue ${venueRead.source}${venueRead.recordedAtBlock === null ? "" : ` (recorded at ${venueRead.recordedAtBlock})`}; usd ratio ${payload.aggregate_solvency_usd_ratio}, status ${payload.status}`,
      );
    }
    table.push(`${compared} statements reproduced, ${orphaned} on blocks reorged away`);
    expect(compared).toBeGreaterThanOrEqual(5);
    // The walk saw a recorded reading reproduce the aggregate, and a block where none counted.
    expect(sources).toContain("recorded");
    expect(sources).toContain("none");
  });
});
