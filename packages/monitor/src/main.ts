/** Process entry of `kusd-monitor` (bin/kusd-monitor.mjs). Ctrl-C stops it after the current poll. */
import { runMonitorCli } from "./cli.js";

const controller = new AbortController();
for (const s of ["SIGINT", "SIGTERM"] as const) process.once(s, () => controller.abort());
process.exitCode = await runMonitorCli(process.argv.slice(2), {
  write: (line) => process.stdout.write(line),
  signal: controller.signal,
  env: process.env,
});
