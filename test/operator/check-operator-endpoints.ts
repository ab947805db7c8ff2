/**
 * `npm run check:operator-endpoints`: the operator's own public-endpoint checker
 * (`../shared/reference/base-mainnet/operator-repo/scripts/verify_public_endpoints.sh`, curl +
 * jq, a client we did not write) run against our API, with both of its origins set to it.
 * Every check whose label names an `/api/` path must pass; the others (the operator's marketing
 * pages, robots meta, sitemap) are out of scope and printed. Exit 0, 1 (an /api/ check failed)
 * or 2 (the script or ../shared is missing).
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { SHARED_REFERENCE_DIR } from "../helpers/shared-reference.js";

const SCRIPT = join(SHARED_REFERENCE_DIR, "operator-repo", "scripts", "verify_public_endpoints.sh");
const origin = (process.argv[2] ?? process.env.KUSD_API_URL ?? "http://127.0.0.1:42069").replace(/\/$/, "");

if (!existsSync(SCRIPT)) {
  console.error(`the operator's checker is not at ${SCRIPT} (../shared beside the project)`);
  process.exit(2);
}
const run = spawnSync("bash", [SCRIPT], {
  env: { ...process.env, KERNE_ORIGIN: origin, APP_ORIGIN: origin },
  encoding: "utf8",
  timeout: 300_000,
});
const json = run.stderr.slice(run.stderr.indexOf("{"));
let summary: { results: { label: string; status: "pass" | "fail"; detail: string }[] };
try {
  summary = JSON.parse(json);
} catch {
  console.error(`the checker printed no JSON summary (exit ${run.status}):\n${run.stdout}\n${run.stderr}`);
  process.exit(2);
}
const api = summary.results.filter((r) => /\/api\//.test(r.label));
const other = summary.results.filter((r) => !/\/api\//.test(r.label));
const failed = api.filter((r) => r.status !== "pass");
for (const r of api) console.log(`${r.status === "pass" ? "PASS" : "FAIL"}  ${r.label.padEnd(55)}  ${r.detail}`);
console.log(`\nout of scope (the operator's web pages, not an /api/ path): ${other.length} checks`);
for (const r of other) console.log(`  ${r.status.padEnd(4)}  ${r.label}`);
// A jq fallback (`// "MISSING"`) passes a field that is absent: say so rather than count it as shown.
const vacuous = api.filter((r) => r.status === "pass" && r.detail === "MISSING");
if (vacuous.length)
  console.log(
    `\npassed only through the checker's "MISSING" fallback (the field is not in our response): ${vacuous.map((r) => r.label).join("; ")}`,
  );
console.log(`\n${api.length - failed.length}/${api.length} /api/ checks passed against ${origin}`);
process.exit(failed.length === 0 ? 0 : 1);
