/**
 * The hourly signed statement (/api/por/signed), modeled on the operator's published schema 4
 * (../shared/reference/base-mainnet/operator-signed-statement-example.json): the same key
 * names wherever the concept is the same, so one verifier and one dashboard read both. It
 * attests the live vault v2 under `chains[]` and publishes psm_solvency_ratio on outstanding
 * kUSD. Pure: built from a /api/por report.
 */
import type { PorReport } from "../reserves/por/por-report.js";

export const STATEMENT_SCHEMA_VERSION = 4;

/** The signed fields a published statement repeats beside the signed bytes (as the operator's schema 4 does). */
export const STATEMENT_COPIES = ["status", "schema_version", "aggregate_solvency_ratio"] as const;

export type StatementOptions = {
  timestamp: number;
  chainName: string;
  signerRole: "operator-account" | "attestation-key";
  /** Where the binding was published when this statement was signed. */
  bindingUrl: string;
  /** The binding's attestation_hash (null: no binding, the operator account signs): names it wherever it is served. */
  bindingHash: `0x${string}` | null;
};

const n = (x: number | null | undefined) => (x === null || x === undefined ? null : x);
const r6 = (x: number | null) => (x === null ? null : Math.round(x * 1e6) / 1e6);

/** PSM_SOLVENT / PSM_UNDER_BACKED / PSM_UNKNOWN, with _VAULT_V1_DEGRADED_KNOWN while the mirror is not reconciled. */
export function statementStatus(psmSolvent: boolean | null, l1Status: string): string {
  const psm = psmSolvent === null ? "PSM_UNKNOWN" : psmSolvent ? "PSM_SOLVENT" : "PSM_UNDER_BACKED";
  return l1Status === "reconciled" ? psm : `${psm}_VAULT_V1_DEGRADED_KNOWN`;
}

export function buildStatementPayload(report: PorReport, o: StatementOptions) {
  const res = report.reserves;
  const v1 = res.vault;
  const v2 = res.vaultV2;
  const l1 = v1.composition.l1Assets;
  const price = report.market.ethPriceUSD;
  const venue = l1.liveVenueEquityUsd;
  const v1Eth = [
    v1.composition.trackedOnChain.eth,
    v1.composition.offChainAssets.eth,
    l1.eth,
    v1.composition.hedgingReserve.eth,
  ];
  const v1RecognisedEth = v1Eth.every((x) => x !== null) ? (v1Eth as number[]).reduce((a, b) => a + b, 0) : null;
  const v1Supply = v1.totalSupplyShares;
  const legacyShareRatio = v1RecognisedEth !== null && v1Supply ? v1RecognisedEth / v1Supply : null;
  const status = statementStatus(report.solvency.psmSolvent, l1.reconciliationStatus);
  return {
    schema_version: STATEMENT_SCHEMA_VERSION,
    timestamp: o.timestamp,
    status,
    // Same basis as the operator's schema 4: the kUSD stablecoin backing.
    aggregate_solvency_ratio: n(report.solvency.psmSolvencyRatio),
    aggregate_solvency_ratio_basis:
      "psm_usdc_reserve / outstanding_kusd (kUSD stablecoin backing). The USD aggregate over vault v1, the insurance fund and the PSMs is aggregate_solvency_usd_ratio.",
    aggregate_solvency_usd_ratio: n(report.solvency.aggregateCollateralRatio),
    aggregate_collateral_usd: n(report.solvency.collateralUSD),
    aggregate_liabilities_usd: n(report.solvency.liabilitiesUSD),
    psm_solvency_ratio: n(report.solvency.psmSolvencyRatio),
    psm_solvent: report.solvency.psmSolvent,
    psm_usdc_reserve: n(res.psm.usdcHeld),
    psm_kusd_held: n(res.psm.kusdHeld),
    psm_reads_available: res.psm.usdcHeld !== null && res.psm.kusdHeld !== null,
    psm_reserves_usdc: {
      psmMint: res.psmMint.usdcHeld,
      psmRetiredMint: res.psmRetiredMint.usdcHeld,
      psmRedeemReserve: res.psmRedeemReserve.usdcHeld,
    },
    is_solvent_resolved: report.solvency.psmSolvent !== null,
    kusd_total_supply: n(report.liabilities.kUSD.totalSupply),
    outstanding_kusd: n(report.liabilities.kUSD.outstanding),
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
    legacy_vault_share_solvency_ratio: r6(legacyShareRatio),
    solvency_ratio: r6(legacyShareRatio),
    vault_v1_degraded_known: l1.reconciliationStatus !== "reconciled",
    total_assets_eth: v2.totalAssetsETH,
    offchain: {
      available: venue !== null,
      venue: "Hyperliquid",
      equity_usd: venue,
      // When the venue answered (its own clock): a reader brackets equity_usd in the venue's account
      // value history around this time. Null when the venue gave no time, or there is no answer.
      venue_time: venue !== null ? l1.venueRead.venueTime : null,
      equity_eth_equiv: venue !== null && price ? venue / price : null,
      mirror_eth: l1.onChainMirror.eth,
      reconciliation_status: l1.reconciliationStatus,
    },
    // The attested live vault v2, as schema 4 lists a vault per chain.
    chains: [
      {
        chain_id: report.chainId,
        chain_name: o.chainName,
        rpc_healthy: report.attestation.failedReads.length === 0,
        timestamp: Date.parse(report.timestamp) / 1000,
        block_number: report.blockNumber,
        vault_address: v2.address,
        total_assets_eth: v2.totalAssetsETH,
        total_assets_wei: v2.totalAssetsWei,
        total_supply_eth: v2.totalSupplyShares,
        solvency_ratio:
          v2.totalAssetsETH !== null && v2.totalSupplyShares ? v2.totalAssetsETH / v2.totalSupplyShares : null,
        minter_role_holds: v2.minterRole.holdsRole,
        minter_role_holder: v2.minterRole.holder,
      },
    ],
    report_block: report.blockNumber,
    report_block_hash: report.blockHash,
    // The network document the figures were read with (SHA-256 of its canonical JSON, GET /api/network).
    network_document_sha256: report.pins.network.documentSha256,
    report_endpoint: report.attestation.canonicalEndpoint,
    signer_role: o.signerRole,
    signer_binding: o.bindingUrl,
    signer_binding_hash: o.bindingHash,
  };
}

export type StatementPayload = ReturnType<typeof buildStatementPayload>;
