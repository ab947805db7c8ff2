/** Outstanding kUSD against the PSMs' USDC per day, from GET /api/history (indexed state). */
import { useEffect, useRef } from "preact/hooks";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import type { HistorySeries } from "../api.js";

export function ReservesChart({ history }: { history: HistorySeries | null }) {
  const host = useRef<HTMLDivElement>(null);
  const points = history?.points ?? [];
  useEffect(() => {
    if (!host.current || points.length === 0) return;
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
    const plot = new uPlot(
      {
        hooks: { setCursor: [showLast] },
        width: Math.max(320, host.current.clientWidth),
        height: 280,
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
    const resize = () => host.current && plot.setSize({ width: Math.max(320, host.current.clientWidth), height: 280 });
    window.addEventListener("resize", resize);
    return () => {
      window.removeEventListener("resize", resize);
      plot.destroy();
    };
  }, [history]);
  return (
    <section class="card">
      <h2>Outstanding kUSD and PSM USDC, daily</h2>
      {history === null ? <p>loading…</p> : points.length === 0 ? <p>No indexed history yet.</p> : null}
      <div ref={host} class="chart" data-testid="chart" data-points={points.length} />
      {history && points.length > 0 && (
        <p class="note">
          {points.length} daily points to block {history.toBlock}, each the state at the last indexed block of its UTC
          day, from indexed rows; {points.filter((p) => p.carried).length} days without one carry the day before (
          <a href={`/api/history?interval=DAY&toBlock=${history.toBlock}`}>JSON</a>).
        </p>
      )}
    </section>
  );
}
