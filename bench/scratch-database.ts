/**
 * A PostgreSQL database of a bench's own, created on the server `url` names and dropped when the
 * bench ends (also on Ctrl-C): the indexers' schemas, views schemas and operator stores go with
 * it, so a bench leaves nothing in the server's `postgres` database.
 */
import { execFileSync } from "node:child_process";

export type ScratchDatabase = { url: string; drop: () => void };

const psql = (url: string, command: string) =>
  execFileSync("psql", [url, "-qtAc", command], { stdio: ["ignore", "pipe", "pipe"] }).toString();

/** Whether a PostgreSQL server answers at `url`. */
export function postgresAnswers(url: string): boolean {
  try {
    psql(url, "select 1");
    return true;
  } catch {
    return false;
  }
}

export function createScratchDatabase(url: string, prefix: string): ScratchDatabase {
  const name = `${prefix}_${process.pid}_${Date.now().toString(36)}`;
  psql(url, `CREATE DATABASE ${name}`);
  const scratch = new URL(url);
  scratch.pathname = `/${name}`;
  let dropped = false;
  const drop = () => {
    if (dropped) return;
    dropped = true;
    try {
      psql(url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    } catch (error) {
      console.error(`could not drop the bench database ${name}: ${String(error)}`);
    }
  };
  const onSignal = () => {
    drop();
    process.exit(130);
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  process.once("exit", drop);
  return { url: scratch.toString(), drop };
}
