/**
 * `npm start` with KUSD_MONITOR_CONFIG: `kusd-monitor --config <file>` beside the API, in this
 * process (one Ctrl-C stops both; no supervisor to set up). The file is the monitor's own
 * (docs/monitoring.md); its `api` may be `${KUSD_API_URL}`, which is set to the API this command
 * starts, so one file serves `npm start` and a monitor run by hand against any site.
 */
import { runMonitorCli } from "../packages/monitor/src/index.js";

export type MonitorBeside = {
  /** Validates the file (as `--check` does) before anything starts; throws with the monitor's own message. */
  check(): Promise<void>;
  /** Runs it until stop(); what it prints is passed to `log` line by line. */
  start(): { stop(): Promise<void> };
};

export function monitorBeside(o: {
  configFile: string;
  apiUrl: string;
  env: Readonly<Record<string, string | undefined>>;
  log: (line: string) => void;
}): MonitorBeside {
  const env = { ...o.env, KUSD_API_URL: o.apiUrl };
  const lines = (write: (line: string) => void) => {
    let pending = "";
    return (chunk: string) => {
      pending += chunk;
      const parts = pending.split("\n");
      pending = parts.pop() ?? "";
      for (const line of parts) if (line) write(line);
    };
  };
  return {
    async check() {
      let said = "";
      const code = await runMonitorCli(["--config", o.configFile, "--check"], {
        write: (s) => (said += s),
        env,
      });
      if (code !== 0) throw new Error(`KUSD_MONITOR_CONFIG=${o.configFile}: ${said.trim()}`);
      o.log(said.trim());
    },
    start() {
      const controller = new AbortController();
      const running = runMonitorCli(["--config", o.configFile], {
        write: lines(o.log),
        signal: controller.signal,
        env,
      }).then((code) => {
        // The monitor exits by itself only on a configuration it cannot run: say so, keep the API up.
        if (!controller.signal.aborted) o.log(`exited with status ${code}; the API keeps running`);
      });
      return {
        async stop() {
          controller.abort();
          await running;
        },
      };
    },
  };
}
