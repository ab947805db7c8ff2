/**
 * /api/apy's headline: expectedAPY as a percentage, its formula filled in with the report's own
 * inputs, each input with its value and where it comes from; then the realized yield of skUSD.
 */
import type { ApyReport } from "../api.js";
import { percent } from "../format.js";
import { ScrollRegion } from "./ScrollRegion.js";

const decimal = (n: number | null, digits: number) => (n === null ? "unknown" : n.toFixed(digits));

function inputsOf(apy: ApyReport) {
  const s = apy.sources;
  return [
    {
      id: "leverage",
      name: "L, the hedge's leverage",
      value: s.leverage,
      shown: decimal(s.leverage, 4),
      basis: "min(12, 1.5 + trailing funding × 10)",
    },
    { id: "carry", name: "L/(L+1)", value: s.carryMultiplier, shown: decimal(s.carryMultiplier, 4), basis: "from L" },
    {
      id: "funding",
      name: "trailing funding",
      value: apy.fundingRate,
      shown: percent(apy.fundingRate, 4),
      basis: `mean of ${s.fundingEntries} hourly funding rates over ${s.fundingWindowDays} days × 8760 (${s.fundingSource})`,
    },
    {
      id: "staking",
      name: "staking yield",
      value: apy.stakingYield,
      shown: percent(apy.stakingYield, 4),
      basis: `7-day simple moving average of the LSTs' daily exchange-rate growth × 365 (${s.stakingSource})`,
    },
    {
      id: "strategy-cost",
      name: "strategy cost",
      value: s.strategyCostFraction,
      shown: percent(s.strategyCostFraction),
      basis: "declared (the network document's yield policy)",
    },
    {
      id: "insurance",
      name: "insurance allocation",
      value: s.insuranceAllocation,
      shown: percent(s.insuranceAllocation),
      basis: "declared (the network document's yield policy)",
    },
    {
      id: "protocol-fee",
      name: "protocol fee",
      value: apy.protocolFee,
      shown: percent(apy.protocolFee),
      basis: `declared, fee phase ${apy.feePhase}`,
    },
  ];
}

export function YieldHeadline({ apy }: { apy: ApyReport }) {
  const s = apy.sources;
  const r = apy.realized;
  return (
    <>
      <p class="big" data-testid="yield-apy" data-value={apy.expectedAPY ?? ""}>
        {percent(apy.expectedAPY)}
      </p>
      <p>
        Expected APY of skUSD, modeled on the deployed book at {apy.timestamp} (Base block{" "}
        {apy.pins.block?.number ?? "unknown"}){apy.isLive ? "" : ": unknown, the venue could not be read"}. The
        incentive escrow is not in it.
      </p>
      <p class="formula">
        expected APY = L/(L+1) × (staking yield + trailing funding) × (1 − strategy cost) × (1 − insurance allocation) ×
        (1 − protocol fee) = {decimal(s.carryMultiplier, 4)} × ({percent(apy.stakingYield)} + {percent(apy.fundingRate)}
        ) × (1 − {percent(s.strategyCostFraction)}) × (1 − {percent(s.insuranceAllocation)}) × (1 −{" "}
        {percent(apy.protocolFee)}) = {percent(apy.expectedAPY)}
      </p>
      <ScrollRegion label="The expected APY's inputs">
        <table>
          <caption class="note">The expected APY's inputs, as /api/apy publishes them</caption>
          <thead>
            <tr>
              <th scope="col">input</th>
              <th scope="col" class="num">
                value
              </th>
              <th scope="col">from</th>
            </tr>
          </thead>
          <tbody>
            {inputsOf(apy).map((i) => (
              <tr key={i.id} data-testid={`yield-input-${i.id}`} data-value={i.value ?? ""}>
                <th scope="row">{i.name}</th>
                <td class="num">{i.shown}</td>
                <td class="note">{i.basis}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
      <h3>Realized</h3>
      <p data-testid="yield-realized" data-value={r.annualized ?? ""}>
        {r.annualized === null ? (
          "skUSD has no share price over the window yet: the realized yield is unknown."
        ) : (
          <>
            skUSD's share price grew at <strong>{percent(r.annualized)}</strong> a year over the last{" "}
            {r.measuredDays ?? "?"} days (window {r.windowDays} days{r.windowClamped ? ", clamped to the history" : ""}
            ), from block {r.fromBlock} to block {r.toBlock} (as of {r.asOf}).
          </>
        )}
      </p>
      <p class="note">
        {r.note}; {r.source}. <a href="/api/apy">/api/apy</a>
      </p>
    </>
  );
}
