/**
 * Outstanding kUSD against the PSMs' USDC per day, from GET /api/history (indexed state), ending
 * at the report's block. Its history (about 100 KB of JSON) and uPlot (its own chunk) are read
 * once the chart comes near the screen: on a phone it starts below the first screen, and reading
 * both costs the main thread the parse, ICU's start (uPlot makes Intl formatters as it loads)
 * and the drawing. It draws into a box that already has the chart's final height, above a note
 * line that is there from the start: the chart arriving moves nothing.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import type uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import { type HistorySeries, readHistory } from "../api.js";
import { useNearScreen } from "./near-screen.js";

/** The plot's height; .chart in style.css reserves it plus the legend. */
const PLOT_HEIGHT = 280;

export function ReservesChart({ toBlock }: { toBlock: number | null }) {
  const host = useRef<HTMLElement>(null);
  const near = useNearScreen(host, "200px");
  const [history, setHistory] = useState<HistorySeries | null>(null);
  const [error, setError] = useState<string | null>(null);
  const points = history?.points ?? [];
  useEffect(() => {
    if (!near || toBlock === null) return;
    let gone = false;
    // The chart of the last block stays until the new block's series is there.
    readHistory(toBlock).then(
      (h) => {
        if (gone) return;
        setHistory(h);
        setError(null);
      },
      (e: Error) => !gone && setError(e.message),
    );
    return () => {
      gone = true;
    };
  }, [near, toBlock]);
  useEffect(() => {
    if (!host.current || points.length === 0) return;
    let plot: uPlot | null = null;
    let gone = false;
    const resize = () =>
      host.current && plot?.setSize({ width: Math.max(320, host.current.clientWidth), height: PLOT_HEIGHT });
    void import("uplot").then(({ default: UPlot }) => {
      if (gone || !host.current) return;
      // The series is dense (days without an indexed block come carried from the server), so each
      // point sits at its UTC day; its block's own time would repeat on carried days.
      const x = points.map((p) => Date.parse(p.period?.start ?? p.timestamp!) / 1000);
      const data: uPlot.AlignedData = [x, points.map((p) => p.kusdOutstanding), points.map((p) => p.psmUSDC.total)];
      const money = (_u: uPlot, v: number | null) => (v === null ? "" : `${Math.round(v).toLocaleString("en-US")}`);
      const last = x.length - 1;
      // With no cursor on the chart, the legend shows the newest point rather than dashes.
      const showLast = (u: uPlot) => {
        if (u.cursor.idx == null) u.setLegend({ idx: last }, false);
      };
      plot = new UPlot(
        {
          hooks: { setCursor: [showLast] },
          width: Math.max(320, host.current.clientWidth),
          height: PLOT_HEIGHT,
          series: [
            {},
            { label: "outstanding kUSD", stroke: "#c2410c", width: 2, value: money },
            { label: "PSM USDC", stroke: "#15803d", width: 2, fill: "rgba(21,128,61,0.08)", value: money },
          ],
          axes: [{}, { size: 80, values: (_u, ticks) => ticks.map((t) => `${(t / 1e6).toFixed(2)}M`) }],
        },
        data,
        host.current,
      );
      plot.setLegend({ idx: last }, false);
      window.addEventListener("resize", resize);
    });
    return () => {
      gone = true;
      window.removeEventListener("resize", resize);
      plot?.destroy();
    };
  }, [history]);
  return (
    <section class="card">
      <h2>Outstanding kUSD and PSM USDC, daily</h2>
      <figure
        ref={host}
        class="chart"
        data-testid="chart"
        data-points={points.length}
        aria-label="Outstanding kUSD and PSM USDC per day"
        aria-busy={history === null}
      />
      <p class="note chart-note">
        {error ? (
          <span class="bad">{error}</span>
        ) : history === null ? (
          "Reading the daily history…"
        ) : points.length === 0 ? (
          "No indexed history yet."
        ) : (
          <>
            {points.length} daily points to block {history.toBlock}, each the state at the last indexed block of its UTC
            day, from indexed rows; {points.filter((p) => p.carried).length} days without one carry the day before (
            <a href={`/api/history?interval=DAY&toBlock=${history.toBlock}`}>JSON</a>).
          </>
        )}
      </p>
    </section>
  );
}
