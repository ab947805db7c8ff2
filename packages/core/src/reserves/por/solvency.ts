/** solvency (spec 2.3 rules 2–6): the 1:1 PSM backing and the USD aggregate over collateral. */

import { z } from "zod";
import { pctTextSchema } from "../../schema-primitives.js";
import {
  aggregateCollateralRatio,
  collateralUsd,
  pct,
  psmSolvencyRatio,
  SOLVENCY_STATUS,
  solvencyStatus,
} from "../solvency-formulas.js";
import { round } from "../units.js";
import { Amount } from "./json-types.js";
import type { PorFigures } from "./por-figures.js";

export const SolvencySchema = z.strictObject({
  status: z.enum(SOLVENCY_STATUS),
  statusThresholds: z.string(),
  psmSolvent: z.boolean().nullable().describe("psmSolvencyRatio ≥ 1; null when the ratio is unknown"),
  psmSolvencyRatio: Amount.describe("combined PSM USDC / outstanding kUSD: the 1:1 mint-backing headline"),
  psmSolvencyPct: pctTextSchema.nullable(),
  primaryBackingRatio: Amount.describe("equals psmSolvencyRatio"),
  collateralUSD: Amount.describe("vault v1 tvlUSD + insurance fund USD + combined PSM USDC"),
  liabilitiesUSD: Amount.describe("outstanding kUSD"),
  aggregateCollateralRatio: Amount.describe("collateralUSD / liabilitiesUSD"),
  aggregateCollateralRatioPct: pctTextSchema.nullable(),
  aggregateBasis: z.string(),
  ratio: Amount.describe("deprecated alias of aggregateCollateralRatio"),
  ratioPct: pctTextSchema.nullable().describe("deprecated alias of aggregateCollateralRatioPct"),
  ratioDeprecated: z.string(),
});
export type Solvency = z.infer<typeof SolvencySchema>;

export function buildSolvency(f: PorFigures): Solvency {
  const { outstanding, psmUsdcTotal } = f;
  const insuranceUsd = f.holdersUsd.insuranceFund;
  const v1Tvl = f.vaultV1.tvlUsd;
  const psmRatio = psmUsdcTotal !== null && outstanding !== null ? psmSolvencyRatio(psmUsdcTotal, outstanding) : null;
  const collateral =
    v1Tvl !== null && insuranceUsd !== null && psmUsdcTotal !== null
      ? collateralUsd({ vaultV1TvlUsd: v1Tvl, insuranceFundUsd: insuranceUsd, psmUsdc: psmUsdcTotal })
      : null;
  const aggregate =
    collateral !== null && outstanding !== null ? aggregateCollateralRatio(collateral, outstanding) : null;
  return {
    status: solvencyStatus(psmRatio, aggregate),
    statusThresholds:
      "fully-backed: psmSolvencyRatio ≥ 1; backed-with-vault-collateral: psmSolvencyRatio < 1 and aggregateCollateralRatio ≥ 1; under-collateralised: aggregateCollateralRatio < 1; unknown: the deciding ratio could not be computed",
    psmSolvent: psmRatio === null ? null : psmRatio >= 1,
    psmSolvencyRatio: round(psmRatio, 8),
    psmSolvencyPct: pct(psmRatio),
    primaryBackingRatio: round(psmRatio, 8),
    collateralUSD: round(collateral),
    liabilitiesUSD: outstanding,
    aggregateCollateralRatio: round(aggregate, 8),
    aggregateCollateralRatioPct: pct(aggregate),
    aggregateBasis:
      "(vault v1 tvlUSD + insurance fund USD + combined PSM USDC) / outstanding kUSD. Vault v1 enters only this aggregate; staking vaults and vault v2 never count.",
    ratio: round(aggregate, 8),
    ratioPct: pct(aggregate),
    ratioDeprecated:
      "ratio and ratioPct are deprecated aliases of aggregateCollateralRatio and aggregateCollateralRatioPct",
  };
}
