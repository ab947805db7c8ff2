/** The reserves page: every figure from the public API at one block, `?block=N` for a past one. */
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import "./style.css";
import {
  type HistorySeries,
  type PorReport,
  readBindingText,
  readHistory,
  readPor,
  readRegistry,
  readStatementText,
} from "./api.js";
import { Header } from "./components/Header.js";
import { Precedent } from "./components/Precedent.js";
import { PsmTable } from "./components/PsmTable.js";
import { Ratios } from "./components/Ratios.js";
import { ReservesChart } from "./components/ReservesChart.js";
import { Safety } from "./components/Safety.js";
import { Vaults } from "./components/Vaults.js";
import { Verification } from "./components/Verification.js";
import { Violations } from "./components/Violations.js";
import { type StatementVerification, verifyStatementText } from "./verify-statement.js";

/** At the head the report is re-read this often (ms); a past block never changes. */
const REFRESH_MS = 30_000;

function blockFromUrl(): number | null {
  const b = new URLSearchParams(location.search).get("block");
  return b !== null && /^\d{1,15}$/.test(b) ? Number(b) : null;
}

function useNow(ms: number) {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(t);
  }, [ms]);
  return now;
}

async function verifyLatest(): Promise<StatementVerification> {
  const pinned = new URLSearchParams(location.search).get("operator");
  const [statement, binding, operator] = await Promise.all([
    readStatementText(),
    readBindingText(),
    pinned ? Promise.resolve(pinned) : readRegistry().then((r) => r.registry.operator),
  ]);
  return verifyStatementText(statement, binding, operator);
}

function App() {
  const [block, setBlock] = useState<number | null>(blockFromUrl());
  const [por, setPor] = useState<PorReport | null>(null);
  const [series, setSeries] = useState<HistorySeries | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [verification, setVerification] = useState<StatementVerification | null>(null);
  const [verifyError, setVerifyError] = useState<string | null>(null);
  const now = useNow(5_000);

  useEffect(() => {
    const onPop = () => setBlock(blockFromUrl());
    window.addEventListener("popstate", onPop);
    return () => window.removeEventListener("popstate", onPop);
  }, []);

  useEffect(() => {
    let cancelled = false;
    const load = async () => {
      try {
        const report = await readPor(block);
        // The chart ends at the report's block, so every figure on the page is of one block.
        const points = await readHistory(report.blockNumber);
        if (cancelled) return;
        setPor(report);
        setSeries(points);
        setError(null);
      } catch (e) {
        if (!cancelled) setError((e as Error).message);
      }
    };
    setPor(null);
    setSeries(null);
    void load();
    const timer = block === null ? setInterval(load, REFRESH_MS) : undefined;
    return () => {
      cancelled = true;
      clearInterval(timer);
    };
  }, [block]);

  useEffect(() => {
    verifyLatest().then(setVerification, (e: Error) => setVerifyError(e.message));
  }, []);

  const choose = (b: number | null) => {
    const url = new URL(location.href);
    if (b === null) url.searchParams.delete("block");
    else url.searchParams.set("block", String(b));
    window.history.pushState(null, "", url);
    setBlock(b);
  };

  return (
    <main>
      <Header por={por} block={block} onBlock={choose} now={now} />
      {error && (
        <p class="card bad" data-testid="error">
          {error}
        </p>
      )}
      <Verification result={verification} error={verifyError} now={now} />
      {por && <Ratios por={por} />}
      <ReservesChart history={series} />
      {por && <PsmTable por={por} />}
      {por && <Safety block={por.blockNumber} />}
      {por && <Precedent por={por} />}
      {por && <Vaults por={por} />}
      <Violations toBlock={por?.blockNumber ?? block} live={block === null} />
      <footer>
        Every figure above is a public read pinned to the report's block, with the <code>cast</code> command that
        reproduces it (the buttons copy it). Source of truth: <a href="/api/por">/api/por</a>,{" "}
        <a href="/api/history">/api/history</a>, <a href="/api/por/signed">/api/por/signed</a>.
      </footer>
    </main>
  );
}

render(<App />, document.getElementById("app")!);
