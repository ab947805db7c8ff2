/**
 * A PostgreSQL server of a test's own (initdb in a temporary directory, on a free port), so a test
 * can stop and start the database under a running stack without touching the machine's server.
 * Debian's binaries (/usr/lib/postgresql/<version>/bin); as root the server runs as the `postgres`
 * user, since PostgreSQL refuses to run as root. `destroy` stops it and removes the directory.
 */
import { execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { freePort } from "./ports.js";

export type PrivatePostgres = {
  url: string;
  port: number;
  /** A fast shutdown: sessions are cut, as when an operator stops the server. */
  stop(): void;
  start(): void;
  destroy(): void;
};

/** The newest installed server's bin directory, or null when none is installed. */
export function postgresBinDir(): string | null {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(root, versions[0], "bin") : null;
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = postgresBinDir();
  if (!bin) throw new Error("no PostgreSQL server binaries under /usr/lib/postgresql (apt-get install postgresql)");
  const dir = mkdtempSync(join(tmpdir(), "kusd-pg-"));
  const data = join(dir, "data");
  const port = await freePort();
  const asRoot = userInfo().uid === 0;
  if (asRoot) {
    const id = (flag: string) => Number(execFileSync("id", [flag, "postgres"]).toString().trim());
    chownSync(dir, id("-u"), id("-g"));
  }
  const run = (tool: string, args: string[]) =>
    execFileSync(
      asRoot ? "runuser" : join(bin, tool),
      asRoot ? ["-u", "postgres", "--", join(bin, tool), ...args] : args,
      { stdio: "pipe", cwd: dir, timeout: 60_000 },
    );
  run("initdb", ["-D", data, "-U", "postgres", "-A", "trust", "--no-sync", "--no-instructions"]);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c max_connections=200`;
  const start = () =>
    run("pg_ctl", ["-D", data, "-o", options, "-l", join(dir, "server.log"), "-w", "-t", "30", "start"]);
  const stop = () => run("pg_ctl", ["-D", data, "-m", "fast", "-w", "-t", "30", "stop"]);
  start();
  let gone = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    stop,
    start,
    destroy() {
      if (gone) return;
      gone = true;
      try {
        stop();
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
