/**
 * One re-derivation's rows: the figure, what was published, what the reader's reads give, and its
 * kind (equal, differs, declared, venue-now, bracketed, beyond-retention) with its note. A note is
 * written once below the table and each row points to it, as kusd-verify prints them.
 */
import type { FigureRow } from "../../../packages/verify/src/index.js";
import { ScrollRegion } from "./ScrollRegion.js";

const shown = (v: unknown) => (v === undefined ? "—" : typeof v === "string" ? v : JSON.stringify(v));

const KIND: Record<FigureRow["kind"], string> = {
  equal: "✓ equal",
  differs: "✗ differs",
  declared: "declared",
  "venue-now": "venue-now",
  bracketed: "bracketed",
  "beyond-retention": "beyond-retention",
};

export function FigureTable({
  id,
  label,
  rows,
  proofs = false,
  testid,
}: {
  /** Prefix of the notes' ids, unique on the page. */
  id: string;
  label: string;
  rows: FigureRow[];
  proofs?: boolean;
  testid: string;
}) {
  const notes: string[] = [];
  const noteOf = (note: string | undefined) => {
    if (note === undefined) return null;
    const i = notes.indexOf(note);
    return i < 0 ? notes.push(note) : i + 1;
  };
  const body = rows.map((r) => {
    const n = noteOf(r.note);
    const now = r.kind === "venue-now" && r.now !== undefined && r.now !== r.published ? r.now : undefined;
    return (
      <tr
        key={r.figure}
        data-testid={testid}
        data-figure={r.figure}
        data-kind={r.kind}
        data-equal={String(r.equal)}
        class={r.kind === "differs" ? "bad" : ""}
      >
        <td>
          <code>{r.figure}</code>
        </td>
        <td>{shown(r.published)}</td>
        <td>
          {shown(r.rederived)}
          {now !== undefined && <div class="note">venue now: {shown(now)}</div>}
        </td>
        <td>
          {KIND[r.kind]}
          {n !== null && (
            <>
              {" "}
              <a href={`#${id}-note-${n}`} aria-label={`note ${n}`}>
                [{n}]
              </a>
            </>
          )}
        </td>
        {proofs && <td title={r.restsOn?.join("\n")}>{r.proof ?? ""}</td>}
      </tr>
    );
  });
  return (
    <>
      <ScrollRegion label={label} tall>
        <table class="figure-table">
          <thead>
            <tr>
              <th scope="col">figure</th>
              <th scope="col">published</th>
              <th scope="col">re-derived</th>
              <th scope="col">kind</th>
              {proofs && <th scope="col">proof</th>}
            </tr>
          </thead>
          <tbody>{body}</tbody>
        </table>
      </ScrollRegion>
      {notes.length > 0 && (
        <ol class="notes">
          {notes.map((note, i) => (
            <li key={note} id={`${id}-note-${i + 1}`}>
              {note}
            </li>
          ))}
        </ol>
      )}
    </>
  );
}
