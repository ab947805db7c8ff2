/** Reserves per PSM and what they can redeem: one transaction against one PSM, paid from its own USDC. */
import type { PorReport } from "../api.js";
import { amount, commandFor, money, shortHex } from "../format.js";
import { CopyCommand } from "./CopyCommand.js";
import { ScrollRegion } from "./ScrollRegion.js";

export function PsmTable({ por }: { por: PorReport }) {
  const d = por.redemptionDepth;
  const r = por.reserves;
  return (
    <section class="card">
      <h2>Reserves per PSM and redemption capacity</h2>
      <ScrollRegion label="Reserves per PSM">
        <table>
          <thead>
            <tr>
              <th>PSM</th>
              <th class="num">USDC held</th>
              <th class="num">kUSD held</th>
              <th class="num">of outstanding</th>
              <th>state</th>
            </tr>
          </thead>
          <tbody>
            {d.byContract.map((c) => {
              const psm = r[c.key as "psmMint" | "psmRetiredMint" | "psmRedeemReserve"];
              return (
                <tr key={c.key} data-testid={`psm-${c.key}`}>
                  <td>
                    <strong>{c.label}</strong> <code title={c.address}>{shortHex(c.address)}</code>
                    <div class="note">{psm.role}</div>
                  </td>
                  <td class="num" data-testid={`psm-usdc-${c.key}`} data-value={psm.usdcHeld ?? ""}>
                    {money(psm.usdcHeld)} <CopyCommand command={commandFor(psm.verifyVia, `${c.key}.usdcHeld`)} />
                  </td>
                  <td class="num">
                    {amount(psm.kusdHeld)} <CopyCommand command={commandFor(psm.verifyVia, `${c.key}.kusdHeld`)} />
                  </td>
                  <td class="num">{c.pctOfOutstanding}</td>
                  <td>
                    {psm.paused === null ? (
                      "pause state unknown"
                    ) : psm.paused ? (
                      <span class="bad">paused</span>
                    ) : (
                      "not paused"
                    )}
                    {c.redeemOnly ? " · redeem-only" : " · mints and redeems"}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </ScrollRegion>
      <div class="capacity">
        <p>
          Instant, one transaction:{" "}
          <strong data-testid="instant-capacity" data-value={d.instantSingleTransactionUSDC ?? ""}>
            {money(d.instantSingleTransactionUSDC)} USDC
          </strong>{" "}
          ({d.instantSingleTransactionPctOfOutstanding} of outstanding, the deepest PSM)
        </p>
        <p>
          Total reachable:{" "}
          <strong data-testid="total-capacity" data-value={d.totalReachableUSDC ?? ""}>
            {money(d.totalReachableUSDC)} USDC
          </strong>{" "}
          ({d.totalReachablePctOfOutstanding} of outstanding
          {d.totalReachableRequiresSequentialTransactions ? ", in several transactions" : ""})
        </p>
        <p class="note">{d.routing}</p>
        <p class="note">{d.disclosure}</p>
      </div>
    </section>
  );
}
