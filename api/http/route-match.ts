/** Route patterns against concrete paths, for the 405 answer of a known path asked with another method. */
/** Whether a route pattern (`/api/por/signed/:hash`) matches a concrete path. */
export function matchesPath(pattern: string, path: string): boolean {
  if (pattern === "*" || pattern === "/*") return false;
  const re = new RegExp(
    `^${pattern
      .replace(/[.+?^${}()|[\]\\]/g, "\\$&")
      .replace(/\/:[^/]+/g, "/[^/]+")
      .replace(/\/\*$/, "(/.*)?")}$`,
  );
  return re.test(path);
}
