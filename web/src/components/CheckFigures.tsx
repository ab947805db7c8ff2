/**
 * The figure check's card: a form that opens the page with the reader's RPC and venue (`?rpc=`,
 * `?venue=`, and `proofs=1` to execute every read over proven state), then the tables it fills: one row per figure of
 * the latest statement, of /api/apy and of /api/hedge-ledger, each with its kind. The tables'
 * components are loaded only when the page is opened with an RPC (CheckResults.tsx).
 */
import { useEffect, useState } from "preact/hooks";
import type { FigureCheck, YieldCheck } from "../check-figures.js";

type Results = typeof import("./CheckResults.js");

export function CheckFigures({
  rpc,
  proofs,
  venue,
  result,
  error,
  yieldResult,
  yieldError,
}: {
  rpc: string | null;
  proofs: boolean;
  venue: string | null;
  result: FigureCheck | null;
  error: string | null;
  yieldResult: YieldCheck | null;
  yieldError: string | null;
}) {
  const [view, setView] = useState<Results | null>(null);
  useEffect(() => {
    if (rpc !== null) void import("./CheckResults.js").then(setView);
  }, [rpc]);
  const state = rpc === null ? "idle" : error ? "error" : result && view ? "done" : "pending";
  const failed = result?.checks.filter((c) => !c.ok) ?? [];
  return (
    <section
      class={`card figures ${state === "done" ? (failed.length ? "bad" : "good") : state === "error" ? "bad" : ""}`}
      data-testid="figures"
      data-state={state}
      data-ms={result?.ms}
    >
      <h2>Check every figure against your own RPC</h2>
      <form method="get" action="/">
        <label>
          Base RPC URL{" "}
          <input name="rpc" type="url" required placeholder="https://…" value={rpc ?? ""} data-testid="rpc-input" />
        </label>{" "}
        <label>
          Venue URL{" "}
          <input
            name="venue"
            type="url"
            placeholder="the network document's"
            value={venue ?? ""}
            data-testid="venue-input"
          />
        </label>{" "}
        <label>
          <input name="proofs" type="checkbox" value="1" checked={proofs} /> with proofs (every read executed over
          proven state)
        </label>{" "}
        <button type="submit" data-testid="rpc-check">
          Check
        </button>
      </form>
      <p class="note">
        Every figure of the latest statement, and of <a href="/api/apy">/api/apy</a> and{" "}
        <a href="/api/hedge-ledger">/api/hedge-ledger</a> as this page shows them, is read again from that RPC (pinned
        by block hash) and venue (by default the network document's), with the verifier's own code (
        <code>kusd-verify --rpc</code>, <code>--report</code>), in this page: this site gives only those documents and{" "}
        <a href="/api/network">/api/network</a>. What cannot be read again is never called equal: it is declared,
        venue-now, bracketed or beyond-retention.
      </p>
      {state === "pending" && <p class="verdict">Re-deriving from {rpc}…</p>}
      {error && (
        <p class="verdict" data-testid="figures-error">
          ✗ {error}
        </p>
      )}
      {result && view && <view.StatementResult result={result} proofs={proofs} />}
      {rpc !== null && view && <view.YieldResults result={yieldResult} error={yieldError} />}
    </section>
  );
}
