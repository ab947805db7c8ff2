/**
 * Ponder's HTTP entry, kept thin: the service is `createPonderApi` (app.ts), loaded as one bundle
 * (bundle.ts) with Ponder's database and tables and the configuration parsed once in
 * src/config.ts. Should bundling fail, the same module loads the way Ponder loads any.
 * Ponder itself adds /health, /ready, /status and /metrics; `serverMiddleware` runs on those too
 * and `onHttpServer` gets Ponder's Node server (server-middleware.ts). Raw SQL is not public (see
 * private-sql.ts).
 */
import { db } from "ponder:api";
import schema from "ponder:schema";
import { network, networkDoc, serviceEnv } from "../config.js";
import { importBundled } from "./bundle.js";

type AppModule = typeof import("./app.js");

const { createPonderApi } = await importBundled<AppModule>("./app.ts", schema).catch((e: Error) => {
  console.warn(`[api] bundling the API failed (${e.message}): loading it module by module`);
  return import("./app.js");
});

const api = createPonderApi({ db, schema, config: { env: serviceEnv, network, networkDocument: networkDoc } });

export default api.app;
export const serverMiddleware = api.serverMiddleware;
export const onHttpServer = api.onHttpServer;
