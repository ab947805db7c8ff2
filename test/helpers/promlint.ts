/**
 * The naming rules of `promtool check metrics` (Prometheus's promlint) over an exposition text,
 * for tests on machines without promtool: each finding in promtool's words. promlint's other
 * rules (HELP present, no reserved suffixes on plain metrics) hold for prom-client's output.
 */
const UNIT_ABBREVIATIONS = ["s", "ms", "us", "ns", "sec", "b", "kb", "mb", "gb", "tb", "pb", "m", "h", "d"];

export function promlint(exposition: string): string[] {
  const findings: string[] = [];
  for (const line of exposition.split("\n")) {
    const m = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (!m) continue;
    const [, name, type] = m as unknown as [string, string, string];
    if (type === "counter" && !name.endsWith("_total"))
      findings.push(`${name} counter metrics should have "_total" suffix`);
    if (type !== "counter" && name.endsWith("_total"))
      findings.push(`${name} non-counter metrics should not have "_total" suffix`);
    if (/[A-Z]/.test(name)) findings.push(`${name} metric names should be written in 'snake_case' not 'camelCase'`);
    const parts = name.split("_");
    if (UNIT_ABBREVIATIONS.some((u) => parts.slice(1).includes(u)))
      findings.push(`${name} metric names should not contain abbreviated units`);
  }
  return findings;
}
