/** Every redemption executed so far, from indexed PSM swaps (the redemption precedent). */
import type { PorReport } from "../api.js";
import { amount, shortHex } from "../format.js";
import { ScrollRegion } from "./ScrollRegion.js";

export function Precedent({ por }: { por: PorReport }) {
  const p = por.redemptionDepth.precedent;
  return (
    <section class="card">
      <h2>Redemption precedent</h2>
      <p>
        <strong data-testid="precedent-count" data-value={p.executedRedemptions}>
          {p.executedRedemptions}
        </strong>{" "}
        redemptions executed, {amount(p.totalRedeemedKUSD)} kUSD redeemed for {amount(p.totalPaidOutUSDC)} USDC;{" "}
        {p.externalRedemptionsToDate} by accounts outside the operator's registry. Complete as of block{" "}
        {p.completeAsOfBlock}.
      </p>
      <ScrollRegion label="Executed redemptions" tall>
        <table>
          <thead>
            <tr>
              <th>date</th>
              <th>PSM</th>
              <th class="num">kUSD</th>
              <th class="num">USDC paid</th>
              <th class="num">fee</th>
              <th>redeemer</th>
              <th>tx</th>
            </tr>
          </thead>
          <tbody>
            {p.transactions.map((t) => (
              <tr key={t.txHash} data-testid="precedent-row">
                <td>{t.date}</td>
                <td>{t.psmLabel}</td>
                <td class="num">{amount(t.kusdRedeemed)}</td>
                <td class="num">{amount(t.usdcPaidOut)}</td>
                <td class="num">{t.feeBps} bps</td>
                <td title={t.redeemer}>{t.redeemerRelationship}</td>
                <td>
                  <code title={t.txHash}>{shortHex(t.txHash)}</code> · block {t.blockNumber}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
    </section>
  );
}
