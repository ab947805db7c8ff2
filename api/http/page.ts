/**
 * The reserves page (web/, built by Vite into `dir`): `/` is its HTML, `/assets/*` its hashed
 * bundles. The page reads only this origin's public API; its CSP says so.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { serveStatic } from "@hono/node-server/serve-static";
import { Hono } from "hono";
import { errorBody } from "./errors.js";

/** A URL's origin when it is an http(s) URL whose host is plain: nothing in it can close the directive or add a source. */
function originOf(url: string | undefined): string | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    return (u.protocol === "http:" || u.protocol === "https:") && /^[\w.:[\]-]+$/.test(u.host) ? u.origin : null;
  } catch {
    // not a URL: the page reads from its own origin only, and says the source cannot be used
    return null;
  }
}

/**
 * Scripts, styles and reads from this origin only (uPlot and Preact set inline styles), and the
 * reader's own RPC and venue when the page is opened to check the figures against them
 * (`?rpc=<URL>&venue=<URL>&l1rpc=<URL>`): reads go to those origins only then, and nowhere else
 * ever. The venue and the Ethereum RPC count only beside an RPC (the check needs it).
 */
export function pageCsp(rpc: string | undefined, venue?: string | undefined, l1rpc?: string | undefined): string {
  const rpcOrigin = originOf(rpc);
  const venueOrigin = rpcOrigin === null ? null : originOf(venue);
  const l1Origin = rpcOrigin === null ? null : originOf(l1rpc);
  const sources = ["'self'", rpcOrigin, venueOrigin, l1Origin].filter(
    (o, i, all): o is string => o !== null && all.indexOf(o) === i,
  );
  return `default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src ${sources.join(" ")}; frame-ancestors 'none'; base-uri 'none'; form-action 'self'`;
}

export function pageRoutes(dir: string) {
  const app = new Hono();
  const index = join(dir, "index.html");
  app.get(
    "/assets/*",
    // Names carry a content hash: a file never changes under its name.
    // The build wrote .br and .gz beside each text file (stack/page-build.ts): served as accepted.
    serveStatic({
      root: dir,
      precompressed: true,
      onFound: (_path, c) => {
        c.header("Cache-Control", "public, max-age=31536000, immutable");
      },
    }),
  );
  app.get("/", async (c, next) => {
    if (!existsSync(index))
      return c.json(
        errorBody("page_not_built", "the reserves page is not built: run `npm run build:page` (npm start builds it)", {
          dir,
        }),
        503,
      );
    c.header("Content-Security-Policy", pageCsp(c.req.query("rpc"), c.req.query("venue"), c.req.query("l1rpc")));
    c.header("Cache-Control", "no-cache");
    return serveStatic({ path: index, precompressed: true })(c, next);
  });
  return app;
}
