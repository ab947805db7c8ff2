/**
 * The app's last route: an unknown path is the JSON 404; a known path asked with a method it does
 * not serve is a 405 whose `Allow` names the methods it does (RFC 9110 §15.5.6). HEAD is allowed
 * wherever GET is (Hono answers it from the GET route), except on the paths that refuse it (the
 * paid answers, bought with GET only). Routes the host serves before this app (Ponder's /metrics,
 * /health, /ready, /status) are known paths too.
 */
import type { Context, Hono } from "hono";
import { errorBody, notFound } from "./errors.js";
import { matchesPath } from "./route-match.js";

export type KnownRoute = { method: string; path: string };

export type MethodNotAllowedOptions = {
  /** Routes answered before this app's (a host's own), so their paths are known here. */
  hostRoutes?: readonly KnownRoute[];
  /** Paths with a GET route that refuse HEAD themselves. */
  refusesHead?: (path: string) => boolean;
};

/** The methods a path is served with, HEAD beside GET unless the path refuses it. */
export function allowedMethods(
  routes: readonly KnownRoute[],
  path: string,
  refusesHead: (path: string) => boolean = () => false,
): string[] {
  const methods = new Set(routes.filter((r) => r.method !== "ALL" && matchesPath(r.path, path)).map((r) => r.method));
  if (methods.has("GET") && !refusesHead(path)) methods.add("HEAD");
  return [...methods];
}

export function methodNotAllowed(app: Hono, o: MethodNotAllowedOptions = {}) {
  return (c: Context) => {
    const allowed = allowedMethods([...(o.hostRoutes ?? []), ...app.routes], c.req.path, o.refusesHead);
    // A route of this method matched and fell through (a missing file under /assets/*): not found.
    if (allowed.length === 0 || allowed.includes(c.req.method)) return notFound(c);
    c.header("Allow", allowed.join(", "));
    return c.json(errorBody("method_not_allowed", `${c.req.method} is not allowed on ${c.req.path}`, { allowed }), 405);
  };
}
