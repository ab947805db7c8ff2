/**
 * The hedge ledger's totals by UTC month (/api/hedge-ledger, spec 2.5): funding, fees, closed PnL
 * and net, with the months whose fills the venue no longer serves marked. netUsd is not profit
 * (rule 6): closed PnL is one leg of the hedge.
 */
import type { HedgeLedger } from "../api.js";
import { amount, money, percent } from "../format.js";
import { type MonthFills, monthFills } from "../yield-format.js";
import { ScrollRegion } from "./ScrollRegion.js";

const KEPT: Record<MonthFills, string> = { kept: "all", partly: "partly", gone: "none" };

export function HedgeLedgerTable({ ledger }: { ledger: HedgeLedger }) {
  const r = ledger.fillsRetention;
  const t = ledger.totals;
  return (
    <>
      <h3>Hedge ledger by month</h3>
      <p class="note">
        The hedge account <code>{ledger.account}</code> on {ledger.venue} ({ledger.coin}), from the venue's own records
        since {ledger.sinceISO.slice(0, 10)} to {ledger.untilISO}. Net = funding + closed PnL − fees, and it is{" "}
        <strong>not profit</strong>: closed PnL is one leg of a hedge, whose other leg (the spot collateral it hedges)
        is not in this ledger.
      </p>
      <p class="note" data-testid="fills-retention" data-complete={String(r.complete)}>
        {r.complete === null
          ? "The venue could not be read: what it keeps of the fills is unknown."
          : r.complete
            ? `The venue served every fill since the start (${amount(r.fillsKept)}; it keeps an account's 10,000 most recent).`
            : `The venue keeps an account's 10,000 most recent fills: it served ${amount(r.fillsKept)}, the oldest at ${r.horizonISO}. Months before it lack the fills it no longer serves (marked in "fills kept").`}
      </p>
      {ledger.months === null ? (
        <p class="bad" data-testid="ledger-unavailable">
          Unknown: {ledger.venueRead.ok ? "no months" : ledger.venueRead.reason}.
        </p>
      ) : (
        <ScrollRegion label="Hedge ledger by month">
          <table class="ledger">
            <thead>
              <tr>
                <th scope="col">month (UTC)</th>
                <th scope="col" class="num">
                  funding, USD
                </th>
                <th scope="col" class="num">
                  fees, USD
                </th>
                <th scope="col" class="num">
                  closed PnL, USD
                </th>
                <th scope="col" class="num">
                  net (not profit), USD
                </th>
                <th scope="col" class="num">
                  fills
                </th>
                <th scope="col">fills kept</th>
              </tr>
            </thead>
            <tbody>
              {ledger.months.map((m) => {
                const kept = monthFills(m.month, r);
                return (
                  <tr
                    key={m.month}
                    data-testid="ledger-row"
                    data-month={m.month}
                    data-funding={m.fundingUsd}
                    data-fees={m.feesUsd}
                    data-closed-pnl={m.closedPnlUsd}
                    data-net={m.netUsd}
                    data-kept={kept}
                    class={kept === "kept" ? "" : "warn"}
                  >
                    <th scope="row">{m.month}</th>
                    <td class="num">{money(m.fundingUsd)}</td>
                    <td class="num">{money(m.feesUsd)}</td>
                    <td class="num">{money(m.closedPnlUsd)}</td>
                    <td class="num">{money(m.netUsd)}</td>
                    <td class="num">{amount(m.fills)}</td>
                    <td>{KEPT[kept]}</td>
                  </tr>
                );
              })}
            </tbody>
            <tfoot>
              <tr data-testid="ledger-totals" data-net={t.netUsd ?? ""}>
                <th scope="row">total</th>
                <td class="num">{money(t.fundingUsd)}</td>
                <td class="num">{money(t.feesUsd)}</td>
                <td class="num">{money(t.closedPnlUsd)}</td>
                <td class="num">{money(t.netUsd)}</td>
                <td class="num">{amount(t.fills)}</td>
                <td />
              </tr>
            </tfoot>
          </table>
        </ScrollRegion>
      )}
      <p class="note">
        The funding carry on the notional held: {percent(ledger.denominator.annualisedOnNotional)} a year.{" "}
        <a href="/api/hedge-ledger">/api/hedge-ledger</a>
      </p>
    </>
  );
}
