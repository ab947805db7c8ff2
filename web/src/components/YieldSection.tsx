/**
 * The yield: /api/apy's headline with its formula and inputs, the realized yield, and the hedge
 * ledger by month from /api/hedge-ledger. Read once for the page (api.ts's readYieldTexts), the
 * same documents the figure check re-derives; its components are loaded with them, as the chart's
 * uPlot is: the section is below the first screen.
 */
import { useEffect, useState } from "preact/hooks";
import { type ApyReport, type HedgeLedger, readYieldTexts } from "../api.js";
import { PendingCard } from "./PendingCard.js";

export const YIELD_TITLE = "Yield";

type Loaded = { apy: ApyReport; ledger: HedgeLedger; view: typeof import("./YieldReports.js") };

export function YieldSection() {
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    Promise.all([readYieldTexts(), import("./YieldReports.js")]).then(
      ([t, view]) =>
        setLoaded({ apy: JSON.parse(t.apy) as ApyReport, ledger: JSON.parse(t.ledger) as HedgeLedger, view }),
      (e: Error) => setError(e.message),
    );
  }, []);
  if (error) return <section class="card bad">{error}</section>;
  if (!loaded) return <PendingCard title={YIELD_TITLE} size="yield" />;
  const { YieldHeadline, HedgeLedgerTable } = loaded.view;
  return (
    <section class="card yield" data-testid="yield">
      <h2>{YIELD_TITLE}</h2>
      <YieldHeadline apy={loaded.apy} />
      <HedgeLedgerTable ledger={loaded.ledger} />
    </section>
  );
}
