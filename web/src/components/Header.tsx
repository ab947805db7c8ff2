/** Status, the report's block and its age, and the block picker (`?block=N`). */
import { useState } from "preact/hooks";
import type { PorReport } from "../api.js";
import { Age } from "./Age.js";

const STATUS_CLASS: Record<string, string> = {
  "fully-backed": "good",
  "backed-with-vault-collateral": "warn",
  "under-collateralised": "bad",
};

export function Header({
  por,
  block,
  onBlock,
}: {
  por: PorReport | null;
  block: number | null;
  onBlock: (b: number | null) => void;
}) {
  const [draft, setDraft] = useState(block === null ? "" : String(block));
  const status = por?.solvency.status ?? "loading";
  return (
    <header>
      <div class="title">
        <h1>kUSD reserves</h1>
        <span class={`badge ${STATUS_CLASS[status] ?? "unknown"}`} data-testid="status" data-value={status}>
          {status}
        </span>
      </div>
      {/*
        Always there, with the report or a placeholder of the same lines (keyed apart, so the report
        replaces the placeholder's text rather than moving it): the report arriving moves nothing.
      */}
      {por ? (
        <p class="block" key="report" data-testid="report-block" data-value={por.blockNumber}>
          <span class="line">
            Base block <strong>{por.blockNumber}</strong> · {por.atHead ? "the indexed head" : "a past block"}
          </span>
          <span class="sep"> · </span>
          <span class="line">
            {por.timestamp} ·{" "}
            <span data-testid="report-age">
              <Age sinceMs={Date.parse(por.timestamp)} />
            </span>
          </span>
        </p>
      ) : (
        <p class="block" key="pending" aria-busy="true">
          <span class="line">
            Base block <strong>{block ?? "…"}</strong> · {block === null ? "the indexed head" : "a past block"}
          </span>
          <span class="sep"> · </span>
          <span class="line">reading the report…</span>
        </p>
      )}
      <form
        class="picker"
        onSubmit={(e) => {
          e.preventDefault();
          const n = draft.trim();
          if (n === "" || n === "latest") return onBlock(null);
          if (/^\d{1,15}$/.test(n)) onBlock(Number(n));
        }}
      >
        <label>
          Report at block{" "}
          <input
            name="block"
            inputMode="numeric"
            pattern="\d*|latest"
            placeholder="latest"
            value={draft}
            onInput={(e) => setDraft((e.target as HTMLInputElement).value)}
          />
        </label>
        <button type="submit">Load</button>
        {block !== null && (
          <button
            type="button"
            onClick={() => {
              setDraft("");
              onBlock(null);
            }}
          >
            Latest
          </button>
        )}
        <a href={`/api/por${block === null ? "" : `?block=${block}`}`}>JSON</a>
        <a href="/graphql">GraphQL</a>
        <a href="/api/openapi.json">OpenAPI</a>
      </form>
    </header>
  );
}
