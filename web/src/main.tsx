/** The reserves page: every figure from the public API at one block, `?block=N` for a past one. */
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import "./style.css";
import {
  type PorReport,
  readBindingText,
  readNetworkDocument,
  readPor,
  readRegistry,
  readStatementText,
  readYieldTexts,
} from "./api.js";
import type { FigureCheck, YieldCheck } from "./check-figures.js";
import { CheckFigures } from "./components/CheckFigures.js";
import { Header } from "./components/Header.js";
import { Precedent } from "./components/Precedent.js";
import { PsmTable } from "./components/PsmTable.js";
import { Ratios } from "./components/Ratios.js";
import { ReservesChart } from "./components/ReservesChart.js";
import { Safety } from "./components/Safety.js";
import { SectionWhenNear } from "./components/SectionWhenNear.js";
import { Vaults } from "./components/Vaults.js";
import { Verification } from "./components/Verification.js";
import { Violations } from "./components/Violations.js";
import { YIELD_TITLE, YieldSection } from "./components/YieldSection.js";
import {
  addressWithVenue,
  documentVenueOf,
  type FigureCheckRequest,
  figureCheckFrom,
  venueUnnamed,
} from "./figure-check-url.js";
import type { StatementVerification } from "./verify-statement.js";
import type { VerifyAnswer, VerifyRequest } from "./verify-worker.js";

/** At the head the report is re-read this often (ms); a past block never changes. */
const REFRESH_MS = 30_000;

function blockFromUrl(): number | null {
  const b = new URLSearchParams(location.search).get("block");
  return b !== null && /^\d{1,15}$/.test(b) ? Number(b) : null;
}

/**
 * With `?rpc=` and no venue named, the page opens itself again with the network document's venue
 * in its address (`&venue=`): the content security policy admits only the origins the address
 * names. True when it does (the checks then run in the page it opens).
 */
async function openedWithDocumentVenue(): Promise<boolean> {
  if (!venueUnnamed(location.search)) return false;
  const next = addressWithVenue(location.href, documentVenueOf(await readNetworkDocument()));
  if (next !== null) location.replace(next);
  return next !== null;
}

/**
 * The statement's figures re-derived from the reader's RPC and venue, on this thread: the page's
 * content security policy lets this document (not a worker's) reach them. The code is loaded only then.
 */
async function checkLatestFigures(c: FigureCheckRequest & { rpc: string }): Promise<FigureCheck> {
  const pinned = new URLSearchParams(location.search).get("operator");
  const [statement, network, bindingText, operator, { checkFigures }] = await Promise.all([
    readStatementText(),
    readNetworkDocument(),
    readBindingText(),
    pinned ? Promise.resolve(pinned) : readRegistry().then((r) => r.registry.operator),
    import("./check-figures.js"),
  ]);
  return checkFigures(statement, network, { bindingText, operator }, c);
}

/** /api/apy and /api/hedge-ledger, the documents the yield section shows, re-derived from the reader's RPC and venue. */
async function checkYield(c: FigureCheckRequest & { rpc: string }): Promise<YieldCheck> {
  const [texts, network, { checkYieldReports }] = await Promise.all([
    readYieldTexts(),
    readNetworkDocument(),
    import("./check-figures.js"),
  ]);
  return checkYieldReports(texts, network, c);
}

const firstLine = (e: Error) => e.message.split("\n")[0] ?? e.message;

/**
 * The latest statement's texts, read here and verified in a worker (verify-worker.ts): the
 * verifier (viem and the attestation core, most of the page's script) is loaded and run off the
 * main thread. Where a worker cannot start, it is loaded and run here.
 */
async function verifyLatest(): Promise<StatementVerification> {
  const pinned = new URLSearchParams(location.search).get("operator");
  const [statement, binding, operator] = await Promise.all([
    readStatementText(),
    readBindingText(),
    pinned ? Promise.resolve(pinned) : readRegistry().then((r) => r.registry.operator),
  ]);
  const request: VerifyRequest = { statement, binding, operator };
  try {
    return await inWorker(request);
  } catch (e) {
    if (!(e instanceof WorkerUnavailable)) throw e;
    const { verifyStatementText } = await import("./verify-statement.js");
    return verifyStatementText(statement, binding, operator);
  }
}

class WorkerUnavailable extends Error {}

function inWorker(request: VerifyRequest): Promise<StatementVerification> {
  return new Promise((resolve, reject) => {
    let worker: Worker;
    try {
      worker = new Worker(new URL("./verify-worker.ts", import.meta.url), { type: "module" });
    } catch (e) {
      return reject(new WorkerUnavailable((e as Error).message));
    }
    worker.onmessage = ({ data }: MessageEvent<VerifyAnswer>) => {
      worker.terminate();
      if (data.ok) resolve(data.result);
      else reject(new Error(data.error));
    };
    worker.onerror = (e) => {
      worker.terminate();
      reject(new WorkerUnavailable(e.message));
    };
    worker.postMessage(request);
  });
}

function App() {
  const [block, setBlock] = useState<number | null>(blockFromUrl());
  const [por, setPor] = useState<PorReport | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [verification, setVerification] = useState<StatementVerification | null>(null);
  const [verifyError, setVerifyError] = useState<string | null>(null);
  const [figureCheck] = useState(() => figureCheckFrom(location.search));
  const [figures, setFigures] = useState<FigureCheck | null>(null);
  const [figuresError, setFiguresError] = useState<string | null>(null);
  const [yieldFigures, setYieldFigures] = useState<YieldCheck | null>(null);
  const [yieldError, setYieldError] = useState<string | null>(null);

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
        if (cancelled) return;
        setPor(report);
        setError(null);
      } catch (e) {
        if (!cancelled) setError((e as Error).message);
      }
    };
    setPor(null);
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

  useEffect(() => {
    const { rpc } = figureCheck;
    if (rpc === null) return;
    const c = { ...figureCheck, rpc };
    openedWithDocumentVenue().then(
      (reopened) => {
        if (reopened) return;
        checkLatestFigures(c).then(setFigures, (e: Error) => setFiguresError(firstLine(e)));
        checkYield(c).then(setYieldFigures, (e: Error) => setYieldError(firstLine(e)));
      },
      (e: Error) => {
        setFiguresError(firstLine(e));
        setYieldError(firstLine(e));
      },
    );
  }, [figureCheck]);

  const choose = (b: number | null) => {
    const url = new URL(location.href);
    if (b === null) url.searchParams.delete("block");
    else url.searchParams.set("block", String(b));
    window.history.pushState(null, "", url);
    setBlock(b);
  };

  return (
    <main>
      <Header por={por} block={block} onBlock={choose} />
      {error && (
        <p class="card bad" data-testid="error">
          {error}
        </p>
      )}
      {/* Every section is in place from the first render, each later read fills its own. */}
      <Verification result={verification} error={verifyError} />
      <CheckFigures
        rpc={figureCheck.rpc}
        proofs={figureCheck.proofs}
        venue={figureCheck.venue}
        l1rpc={figureCheck.l1rpc}
        result={figures}
        error={figuresError}
        yieldResult={yieldFigures}
        yieldError={yieldError}
      />
      <Ratios por={por} />
      {/* The chart ends at the report's block, so every figure on the page is of one block. */}
      <ReservesChart toBlock={por?.blockNumber ?? null} />
      <SectionWhenNear
        por={por}
        frames={1}
        title="Reserves per PSM and redemption capacity"
        size="psm"
        section={(p) => <PsmTable por={p} />}
      />
      <SectionWhenNear
        por={por}
        frames={2}
        title="Mint readiness and safety switches"
        size="safety"
        section={(p) => <Safety block={p.blockNumber} />}
      />
      <SectionWhenNear
        por={por}
        frames={3}
        title="Redemption precedent"
        size="precedent"
        section={(p) => <Precedent por={p} />}
      />
      <SectionWhenNear por={por} frames={4} title="Vaults" size="vaults" section={(p) => <Vaults por={p} />} />
      {/* Read once the report's block is known (at the head too): one read, not one before and one after. */}
      <SectionWhenNear
        por={por}
        frames={5}
        title="Registry violations"
        size="violations"
        section={(p) => <Violations toBlock={p.blockNumber} live={block === null} />}
      />
      {/* At the head whatever the block shown: the yield report and the ledger are read now. */}
      <SectionWhenNear por={por} frames={6} title={YIELD_TITLE} size="yield" section={() => <YieldSection />} />
      <footer>
        Every reserves figure above is a public read pinned to the report's block, with the <code>cast</code> command
        that reproduces it (the buttons copy it); the yield is read at the head, now. Source of truth:{" "}
        <a href="/api/por">/api/por</a>, <a href="/api/history">/api/history</a>,{" "}
        <a href="/api/por/signed">/api/por/signed</a>, <a href="/api/apy">/api/apy</a>,{" "}
        <a href="/api/hedge-ledger">/api/hedge-ledger</a>.
      </footer>
    </main>
  );
}

render(<App />, document.getElementById("app")!);
