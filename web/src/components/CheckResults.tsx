/**
 * The figure check's results: the statement's verdict and rows, then /api/apy's and
 * /api/hedge-ledger's, each report with its checks, its rows by kind and its table. One chunk,
 * loaded only when the page is opened with an RPC to check against.
 */
import type { FigureCheck, ReportCheck, YieldCheck } from "../check-figures.js";
import { ethereumLines, pendingOnEthereum, trustWords } from "../ethereum-words.js";
import { FigureTable } from "./FigureTable.js";

// The card's colour (CheckFigures.tsx) is decided with this chunk loaded.
export { pendingOnEthereum };

export function StatementResult({ result, proofs }: { result: FigureCheck; proofs: boolean }) {
  const failed = result.checks.filter((c) => !c.ok);
  const proven = result.ethereum?.status === "proven" ? ", on a block hash proven from Ethereum" : "";
  return (
    <>
      <p class="verdict" data-testid="figures-verdict">
        {failed.length === 0
          ? `✓ Every re-derivable figure equals the signed one (block ${result.block}${proven}, ${result.ms} ms).`
          : pendingOnEthereum(result)
            ? `PENDING: every re-derivable figure equals the signed one (block ${result.block}, ${result.ms} ms); the block is not proven from Ethereum yet.`
            : `✗ ${failed.map((c) => `${c.name}: ${c.detail}`).join("; ")}`}
      </p>
      {result.ethereum && <EthereumResult result={result} />}
      <p class="note" data-testid="figures-trust">
        {trustWords({ proofs, ethereum: result.ethereum, block: result.block })}
      </p>
      <p class="note" data-testid="figures-summary">
        {result.summary}
      </p>
      <FigureTable
        id="check-statement"
        label="The statement's figures, re-derived"
        rows={result.rows}
        proofs={proofs}
        testid="figure-row"
      />
    </>
  );
}

/** The `ethereum` check (proven, PENDING, or why not), with the game, its state and the Ethereum block under it. */
function EthereumResult({ result }: { result: FigureCheck }) {
  const l1 = result.ethereum!;
  const check = result.checks.find((c) => c.name === "ethereum")!;
  const mark = l1.status === "proven" ? "✓" : l1.status === "pending" ? "…" : "✗";
  return (
    <div
      data-testid="ethereum"
      data-status={l1.status}
      data-l1-block={l1.l1.number}
      data-game={l1.game?.address}
      data-root-index={l1.game?.rootIndex}
      data-standing={l1.game?.standing}
      data-next-block={l1.next?.block}
    >
      <ul class="checks note">
        <li
          class={l1.status === "proven" ? "good" : l1.status === "pending" ? "warn" : "bad"}
          data-testid="check-ethereum"
        >
          {mark} <strong>{check.name}</strong> — {check.detail}
        </li>
        {ethereumLines(l1).map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
    </div>
  );
}

export function YieldResults({ result, error }: { result: YieldCheck | null; error: string | null }) {
  const state = error ? "error" : result ? "done" : "pending";
  return (
    <div data-testid="yield-figures" data-state={state} data-ms={result?.ms}>
      <h3>The yield reports</h3>
      {state === "pending" && <p class="verdict">Re-deriving /api/apy and /api/hedge-ledger…</p>}
      {error && (
        <p class="verdict bad" data-testid="yield-figures-error">
          ✗ {error}
        </p>
      )}
      {result?.reports.map((r) => (
        <ReportResult key={r.path} check={r} ms={result.ms} />
      ))}
    </div>
  );
}

function ReportResult({ check, ms }: { check: ReportCheck; ms: number }) {
  if (check.error !== null)
    return (
      <section data-testid="report-check" data-report={check.path} data-state="error">
        <h4>
          <a href={check.path}>{check.path}</a>
        </h4>
        <p class="verdict bad">✗ {check.error}</p>
      </section>
    );
  const failed = check.checks.filter((c) => !c.ok);
  return (
    <section data-testid="report-check" data-report={check.path} data-state="done">
      <h4>
        <a href={check.path}>{check.path}</a>
        {check.block !== null && ` at block ${check.block}`}
      </h4>
      <p class={`verdict ${failed.length ? "bad" : "good"}`} data-testid="report-verdict">
        {failed.length === 0
          ? `✓ No figure differs (${ms} ms).`
          : `✗ ${failed.map((c) => `${c.name}: ${c.detail}`).join("; ")}`}
      </p>
      <p class="note" data-testid="report-summary">
        {check.summary}
      </p>
      <ul class="checks note">
        {/* The figures' check is the summary above. */}
        {check.checks
          .filter((c) => c.name !== "figures")
          .map((c) => (
            <li key={c.name} class={c.ok ? "" : "bad"}>
              {c.ok ? "✓" : "✗"} {c.name}: {c.detail}
            </li>
          ))}
      </ul>
      <FigureTable
        id={`check-${check.path.replace(/^\/api\//, "")}`}
        label={`${check.path}, re-derived`}
        rows={check.rows}
        testid="report-row"
      />
    </section>
  );
}
