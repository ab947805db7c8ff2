/** The doctor's report as the terminal shows it: aligned columns, then the verdict and the request count. */
import type { DoctorReport, DoctorResult, DoctorRow } from "./types.js";

export function renderDoctorTable(report: DoctorReport): string {
  const header: DoctorRow = { check: "check", subject: "subject", result: "ok", detail: "detail" };
  const cells = [header, ...report.rows].map(
    (r, i) => [r.check, r.subject, i === 0 ? "result" : r.result, r.detail] as const,
  );
  const width = [0, 1, 2].map((col) => Math.max(...cells.map((c) => c[col]!.length)));
  const lines = cells.map((c) => `${[0, 1, 2].map((col) => c[col]!.padEnd(width[col]!)).join("  ")}  ${c[3]}`);
  const count = (result: DoctorResult) => report.rows.filter((r) => r.result === result).length;
  const summary = `${report.ok ? "READY" : "NOT READY"}: ${count("ok")} ok, ${count("FAIL")} failed, ${count("warn")} warnings; ${report.requests} RPC requests`;
  return `${lines.map((l) => l.trimEnd()).join("\n")}\n${summary}\n`;
}
