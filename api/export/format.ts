/**
 * Rows as CSV or NDJSON, each value as GraphQL prints it (addresses checksummed, amounts as
 * decimal strings, times ISO 8601), so an export and a GraphQL answer of the same query hold the
 * same text. The CSV header names each column's unit: `usdcAmount (USDC, 6 decimals raw)`.
 */
import { getAddress } from "viem";
import type { ColumnSpec, EntitySpec, Row } from "../graphql/query/entity.js";

export type ExportFormat = "csv" | "ndjson";

export const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: "text/csv; charset=utf-8",
  ndjson: "application/x-ndjson",
};

/** A column's value in an export: what GraphQL answers for it (null where it is null). */
export function exportValue(c: ColumnSpec, v: unknown): string | number | boolean | null {
  if (v === null || v === undefined) return null;
  switch (c.kind) {
    case "hex-address":
      return getAddress(String(v));
    case "timestamp":
      return new Date(Number(v) * 1000).toISOString();
    case "int":
      return Number(v);
    case "boolean":
      return Boolean(v);
    default:
      return String(v);
  }
}

const cell = (v: string | number | boolean | null) => {
  if (v === null) return "";
  const s = String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

export function csvHeader(spec: EntitySpec): string {
  return `${spec.columns.map((c) => cell(c.unit ? `${c.name} (${c.unit})` : c.name)).join(",")}\n`;
}

export function formatRows(spec: EntitySpec, format: ExportFormat, rows: readonly Row[]): string {
  let out = "";
  for (const row of rows) {
    if (format === "csv") out += `${spec.columns.map((c) => cell(exportValue(c, row[c.name]))).join(",")}\n`;
    else
      out += `${JSON.stringify(Object.fromEntries(spec.columns.map((c) => [c.name, exportValue(c, row[c.name])])))}\n`;
  }
  return out;
}
