/** The two backing ratios, each with its formula filled in with the report's own figures. */

import type { VenueReadDoc as VenueRead } from "@kusd/core";
import type { PorReport } from "../api.js";
import { money, ratio } from "../format.js";
import { CommandList } from "./CopyCommand.js";

/** Until the report arrives, both cards with their titles and the space of their figures. */
function RatiosPending() {
  return (
    <section class="ratios" aria-busy="true">
      {[
        ["PSM backing ratio", "psm"],
        ["Aggregate collateral ratio", "aggregate"],
      ].map(([title, kind]) => (
        <div class={`ratio card ${kind}`} key={title}>
          <h2>{title}</h2>
          <p class="big">…</p>
          <p class="formula">reading the report…</p>
        </div>
      ))}
    </section>
  );
}

export function Ratios({ por }: { por: PorReport | null }) {
  if (!por) return <RatiosPending />;
  const s = por.solvency;
  const r = por.reserves;
  const k = por.liabilities.kUSD;
  const psmCommands = [...r.psmMint.verifyVia, ...r.psmRetiredMint.verifyVia, ...r.psmRedeemReserve.verifyVia].filter(
    (c) => c.includes("usdcHeld"),
  );
  return (
    <section class="ratios">
      <div class="ratio card psm">
        <h2>PSM backing ratio</h2>
        <p class="big" data-testid="psm-ratio" data-value={s.psmSolvencyRatio ?? ""}>
          {ratio(s.psmSolvencyRatio)}
        </p>
        <p class="formula">
          combined PSM USDC ÷ outstanding kUSD ={" "}
          <span data-testid="psm-usdc-total" data-value={r.psm.usdcHeld ?? ""}>
            {money(r.psm.usdcHeld)}
          </span>{" "}
          ÷{" "}
          <span data-testid="outstanding" data-value={k.outstanding ?? ""}>
            {money(k.outstanding)}
          </span>
        </p>
        <p class="note">
          Outstanding kUSD = totalSupply {money(k.totalSupply)} − kUSD held by the three PSMs {money(r.psm.kusdHeld)}.
          USDC only: 1 kUSD is redeemable for 1 USDC less fees.
        </p>
        <CommandList commands={[...psmCommands, ...k.verifyVia]} />
      </div>
      <div class="ratio card aggregate">
        <h2>Aggregate collateral ratio</h2>
        <p class="big" data-testid="aggregate-ratio" data-value={s.aggregateCollateralRatio ?? ""}>
          {ratio(s.aggregateCollateralRatio)}
        </p>
        <p class="formula">
          (vault v1 {money(r.vault.tvlUSD)} + insurance fund {money(r.insuranceFund.totalUSD)} + PSM USDC{" "}
          {money(r.psm.usdcHeld)}) ÷ outstanding {money(k.outstanding)} = {money(s.collateralUSD)} ÷{" "}
          {money(s.liabilitiesUSD)}
        </p>
        <p class="note">{s.aggregateBasis}</p>
        <p class="note" data-testid="venue-read">
          {venueNote(r.vault.composition.l1Assets.venueRead)}
        </p>
        <CommandList commands={[...r.vault.verifyVia, ...r.insuranceFund.verifyVia]} />
      </div>
    </section>
  );
}

/** Where the equity that caps the venue mirror came from, in words. */
function venueNote(v: VenueRead): string {
  if (v.source === "live")
    return `Vault v1's venue mirror counts at most the venue's equity, read ${v.ageSeconds ?? 0} s before this report.`;
  if (v.source === "recorded")
    return `Vault v1's venue mirror counts at most the venue's equity recorded by the statement at block ${v.recordedAtBlock} (${v.ageSeconds ?? 0} s before this block).`;
  return `Vault v1's venue mirror counts for nothing here: ${v.reason}.`;
}
