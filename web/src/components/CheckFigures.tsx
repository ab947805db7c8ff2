/**
 * The figure check's card: a form that opens the page with the reader's RPC (`?rpc=`, and
 * `proofs=1` for storage proofs), then the table it fills, one row per signed figure.
 */
import type { FigureCheck } from "../check-figures.js";

const shown = (v: unknown) => (v === undefined ? "—" : typeof v === "string" ? v : JSON.stringify(v));

export function CheckFigures({
  rpc,
  proofs,
  result,
  error,
}: {
  rpc: string | null;
  proofs: boolean;
  result: FigureCheck | null;
  error: string | null;
}) {
  const state = rpc === null ? "idle" : error ? "error" : result ? "done" : "pending";
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
          <input name="proofs" type="checkbox" value="1" checked={proofs} /> with storage proofs
        </label>{" "}
        <button type="submit" data-testid="rpc-check">
          Check
        </button>
      </form>
      <p class="note">
        Every figure the latest statement signs is read again from that RPC at the statement's block (pinned by its
        hash), with the verifier's own code (<code>kusd-verify --rpc</code>), in this page. This site gives only the
        statement and the contract addresses (<a href="/api/network">/api/network</a>). A figure that rests on the venue
        equity recorded at signing cannot be read again: it is marked, never called equal.
      </p>
      {state === "pending" && <p class="verdict">Re-deriving from {rpc}…</p>}
      {error && (
        <p class="verdict" data-testid="figures-error">
          ✗ {error}
        </p>
      )}
      {result && (
        <>
          <p class="verdict" data-testid="figures-verdict">
            {failed.length === 0
              ? `✓ Every re-derivable figure equals the signed one (block ${result.block}, ${result.ms} ms).`
              : `✗ ${failed.map((c) => `${c.name}: ${c.detail}`).join("; ")}`}
          </p>
          <div class="scroll">
            <table>
              <thead>
                <tr>
                  <th>figure</th>
                  <th>signed</th>
                  <th>re-derived</th>
                  <th>verdict</th>
                  {proofs && <th>proof</th>}
                </tr>
              </thead>
              <tbody>
                {result.rows.map((r) => (
                  <tr
                    key={r.figure}
                    data-testid="figure-row"
                    data-figure={r.figure}
                    data-equal={String(r.equal)}
                    class={r.equal === false ? "bad" : ""}
                  >
                    <td>
                      <code>{r.figure}</code>
                    </td>
                    <td>{shown(r.published)}</td>
                    <td>{shown(r.rederived)}</td>
                    <td>{r.equal === null ? "recorded at signing" : r.equal ? "✓ equal" : "✗ differs"}</td>
                    {proofs && <td title={r.restsOn?.join("\n")}>{r.proof ?? ""}</td>}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}
