/**
 * Registry violations: the listing up to the report's block, and at the head the live GraphQL
 * subscription (server-sent events): DETECTED adds a row, RETRACTED (a reorg) removes it.
 */
import { useEffect, useState } from "preact/hooks";
import { readViolations, type Violation } from "../api.js";
import { amount, shortHex } from "../format.js";
import { ScrollRegion } from "./ScrollRegion.js";

const SUBSCRIPTION =
  "subscription { violations { kind violation { id tokenSymbol amount decimals from to txHash blockNumber timestamp registryVersion } } }";

type Streamed = {
  kind: "DETECTED" | "RETRACTED";
  violation: Omit<Violation, "amount" | "blockNumber"> & { amount: string; decimals: number; blockNumber: string };
};

export function Violations({ toBlock, live }: { toBlock: number | null; live: boolean }) {
  const [rows, setRows] = useState<(Violation & { live?: boolean })[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [streaming, setStreaming] = useState(false);

  useEffect(() => {
    setRows(null);
    readViolations(toBlock).then(setRows, (e: Error) => setError(e.message));
  }, [toBlock]);

  useEffect(() => {
    if (!live) return;
    const source = new EventSource(`/graphql?query=${encodeURIComponent(SUBSCRIPTION)}`);
    source.onopen = () => setStreaming(true);
    source.onerror = () => setStreaming(false);
    source.addEventListener("next", (e) => {
      const event = (JSON.parse((e as MessageEvent<string>).data) as { data?: { violations?: Streamed } }).data
        ?.violations;
      if (!event) return;
      const v = event.violation;
      const row = { ...v, amount: Number(v.amount) / 10 ** v.decimals, blockNumber: Number(v.blockNumber), live: true };
      setRows((now) => {
        const rest = (now ?? []).filter((r) => r.id !== v.id);
        return event.kind === "RETRACTED" ? rest : [row, ...rest];
      });
    });
    return () => source.close();
  }, [live]);

  return (
    <section class="card" aria-busy={rows === null && !error}>
      <h2>
        Registry violations{" "}
        <span class={`badge ${streaming ? "good" : "unknown"}`} data-testid="violations-live">
          {live ? (streaming ? "live" : "connecting") : "past block: not live"}
        </span>
      </h2>
      <p class="note">
        Transfers out of an account in the operator's published registry that no allowed pattern explains (spec 2.6 rule
        2).
      </p>
      {error && <p class="bad">{error}</p>}
      {rows === null && !error && <p>loading…</p>}
      {rows !== null && rows.length === 0 && <p data-testid="violations-none">None up to this block.</p>}
      {rows !== null && rows.length > 0 && (
        <ScrollRegion label="Registry violations" tall>
          <table>
            <thead>
              <tr>
                <th>block</th>
                <th>token</th>
                <th class="num">amount</th>
                <th>from → to</th>
                <th>tx</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((v) => (
                <tr key={v.id} data-testid="violation-row" class={v.live ? "fresh" : ""}>
                  <td>{v.blockNumber}</td>
                  <td>{v.tokenSymbol}</td>
                  <td class="num">{amount(v.amount)}</td>
                  <td>
                    <code title={v.from}>{shortHex(v.from)}</code> → <code title={v.to}>{shortHex(v.to)}</code>
                  </td>
                  <td>
                    <code title={v.txHash}>{shortHex(v.txHash)}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
    </section>
  );
}
