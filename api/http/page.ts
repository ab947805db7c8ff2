/**
 * The reserves page (web/, built by Vite into `dir`): `/` is its HTML, `/assets/*` its hashed
 * bundles. The page reads only this origin's public API; its CSP says so.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { serveStatic } from "@hono/node-server/serve-static";
import { Hono } from "hono";
import { errorBody } from "./errors.js";

/**
 * Scripts, styles and reads from this origin only (uPlot and Preact set inline styles), and the
 * reader's own RPC when the page is opened to check the figures against it (`?rpc=<URL>`): reads
 * go to that one origin only then, and nowhere else ever.
 */
export function pageCsp(rpc: string | undefined): string {
  let connect = "'self'";
  if (rpc) {
    try {
      const u = new URL(rpc);
      // An origin is scheme, host and port: nothing in it can close the directive or add a source.
      if ((u.protocol === "http:" || u.protocol === "https:") && /^[\w.:[\]-]+$/.test(u.host))
        connect += ` ${u.origin}`;
    } catch {
      // not a URL: the page reads from its own origin only, and says the RPC cannot be used
    }
  }
  return `default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src ${connect}; frame-ancestors 'none'; base-uri 'none'; form-action 'self'`;
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
    c.header("Content-Security-Policy", pageCsp(c.req.query("rpc")));
    c.header("Cache-Control", "no-cache");
    return serveStatic({ path: index, precompressed: true })(c, next);
  });
  return app;
}
