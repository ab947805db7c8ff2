/**
 * The figure check's card: a form that opens the page with the reader's RPC and venue (`?rpc=`,
 * `?venue=`, and `proofs=1` to execute every read over proven state), and the reader's Ethereum RPC
 * (`?l1rpc=`: the statement's block proven from the roots Base posts on Ethereum, with proofs), then
 * the tables it fills: one row per figure of the latest statement, of /api/apy and of
 * /api/hedge-ledger, each with its kind. The tables' components are loaded only when the page is
 * opened with an RPC (CheckResults.tsx).
 */
import { useEffect, useState } from "preact/hooks";
import type { FigureCheck, YieldCheck } from "../check-figures.js";

type Results = typeof import("./CheckResults.js");

export function CheckFigures({
  rpc,
  proofs,
  venue,
  l1rpc,
  result,
  error,
  yieldResult,
  yieldError,
}: {
  rpc: string | null;
  proofs: boolean;
  venue: string | null;
  l1rpc: string | null;
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
  const verdict =
    state === "done"
      ? failed.length === 0
        ? "good"
        : view!.pendingOnEthereum(result!)
          ? "warn"
          : "bad"
      : state === "error"
        ? "bad"
        : "";
  return (
    <section class={`card figures ${verdict}`} data-testid="figures" data-state={state} data-ms={result?.ms}>
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
        <label>
          Ethereum RPC URL{" "}
          <input
            name="l1rpc"
            type="url"
            placeholder="optional: trust Ethereum"
            title="The statement's block proven from the output roots Base posts on Ethereum (kusd-verify --l1-rpc), with proofs"
            value={l1rpc ?? ""}
            data-testid="l1rpc-input"
          />
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
      {/* Only once a check is asked: the idle card keeps its height, so the chart below it stays near enough the first screen to load (ReservesChart.tsx). */}
      {rpc !== null && (
        <p class="note">
          Whose word the statement's block rests on: without proofs, your Base RPC's answers; with proofs, its header
          for that block. With an Ethereum RPC (proofs implied) the block's hash is proven from the output roots Base
          posts on Ethereum, as <code>kusd-verify --l1-rpc</code> does (the <code>ethereum</code> check: proven with the
          game's state and when it is final, PENDING until a root covering the block is posted, or why not): you then
          trust an Ethereum header from that RPC and the state of Base's proof system there, not your Base RPC and not
          this site's operator. The yield reports are re-read from your Base RPC without proofs.
        </p>
      )}
      {state === "pending" && (
        <p class="verdict">
          Re-deriving from {rpc}
          {l1rpc !== null && <>, the block proven from Ethereum on {l1rpc}</>}…
        </p>
      )}
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
