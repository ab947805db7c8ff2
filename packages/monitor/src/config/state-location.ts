/**
 * Where a monitor keeps its progress and its outbox. Never the working directory: a plain run
 * from a checkout left `.kusd-monitor.json` and its outbox there. Without `state` or `stateDir`,
 * a directory of its own under the user's state home (XDG: `$XDG_STATE_HOME`, else
 * `~/.local/state`), one per API watched, since a cursor belongs to one API's chain.
 */
import { homedir } from "node:os";
import { join, resolve } from "node:path";

export type StateLocation =
  | { statePath: string; outboxDir: string; stateUrl: null }
  /** A PostgreSQL URL: the state and outbox shared by a group of monitors (state/postgres-store.ts). */
  | { statePath: null; outboxDir: null; stateUrl: string };

/** `state: postgres://…` (or postgresql://) names a shared store rather than a file. */
export const isStateUrl = (state: string) => /^postgres(ql)?:\/\//i.test(state);

/** `~/.local/state/kusd-monitor/<api host and port>`, or under `$XDG_STATE_HOME`. */
export function defaultStateDir(apiUrl: string, env: Readonly<Record<string, string | undefined>>): string {
  const home = env.XDG_STATE_HOME?.trim() || join(env.HOME?.trim() || homedir(), ".local", "state");
  const api = new URL(apiUrl);
  const name = `${api.hostname}_${api.port || (api.protocol === "https:" ? "443" : "80")}${api.pathname.replace(/\/+$/, "").replace(/[^\w.-]+/g, "_")}`;
  return join(home, "kusd-monitor", name);
}

/**
 * The state file and outbox of a configuration: `state` names the file (its outbox beside it, as
 * before) or a PostgreSQL database shared by a group, `stateDir` a directory holding `state.json`
 * and `outbox/`, neither the default directory.
 */
export function stateLocation(
  c: { api: string; state?: string; stateDir?: string },
  env: Readonly<Record<string, string | undefined>>,
): StateLocation {
  if (c.state && isStateUrl(c.state)) return { statePath: null, outboxDir: null, stateUrl: c.state };
  if (c.state) return { statePath: resolve(c.state), outboxDir: `${resolve(c.state)}.outbox`, stateUrl: null };
  const dir = resolve(c.stateDir ?? defaultStateDir(c.api, env));
  return { statePath: join(dir, "state.json"), outboxDir: join(dir, "outbox"), stateUrl: null };
}
