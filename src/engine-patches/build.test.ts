/**
 * Ponder's build (build/index.js) over a project of a few files in a temporary directory:
 *   - build-lean-vite (patches/README.md): outside `ponder dev` vite watches no files, and every
 *     package under node_modules is left to Node (vite-node took any file under an `esm/`
 *     directory for one Node cannot load and ran it through vite's SSR transform);
 *   - indexing-ignores-tests: `*.test.ts` beside the indexing code is not executed as indexing code;
 *   - server-hooks: the API file's `serverMiddleware` and `onHttpServer` reach the server's build;
 *   - pglite-one-open: the connection diagnostic borrows a PGlite handed over for its directory
 *     instead of opening the directory a second time, and leaves it open.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

type Result<T> = { status: "success"; result: T } | { status: "error"; error: Error };
type Build = {
  executeConfig: () => Promise<Result<{ config: { native: boolean } }>>;
  executeIndexingFunctions: () => Promise<Result<{ indexingFunctions: unknown[] }>>;
  executeApi: (args: object) => Promise<Result<{ serverMiddleware?: unknown; onHttpServer?: unknown }>>;
  compileApi: (args: object) => Promise<Result<{ serverMiddleware?: unknown; onHttpServer?: unknown }>>;
  databaseDiagnostic: (args: object) => Promise<Result<undefined>>;
};
const nodeModules = fileURLToPath(new URL("../../node_modules/", import.meta.url));
const { createBuild }: { createBuild: (args: object) => Promise<Build> } = await import(
  new URL("../../node_modules/ponder/dist/esm/build/index.js", import.meta.url).href
);

const GLOBALS = ["PONDER_COMMON", "PONDER_PRE_BUILD", "PONDER_INDEXING_BUILD", "PONDER_DATABASE"] as const;
const SLOT = Symbol.for("kusd.pglite");
const globals = globalThis as unknown as Record<string | symbol, unknown>;

const silent = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };
const logger = { ...silent, child: () => logger };

const root = mkdtempSync(join(tmpdir(), "kusd-build-"));
const files: Record<string, string> = {
  "package.json": JSON.stringify({ name: "fixture", type: "module" }),
  "ponder.config.ts": 'import { native } from "probe";\nexport default { native };\n',
  "ponder.schema.ts": "export {};\n",
  "src/index.ts": 'import { ponder } from "ponder:registry";\nponder.on("Fixture:Event", async () => {});\n',
  "src/index.test.ts": 'throw new Error("a test file ran as indexing code");\n',
  "src/api/index.ts": [
    'import { Hono } from "hono";',
    "export default new Hono();",
    "export const serverMiddleware = async (_c: unknown, next: () => Promise<void>) => next();",
    "export const onHttpServer = (_server: unknown) => {};",
    "",
  ].join("\n"),
  // A package of its own with its ES module under esm/ and no "type": "module", as Ponder's own
  // dist and GraphQL Yoga's tree are: it tells where it runs (vite-node's SSR wrapper defines
  // __vite_ssr_exports__; Node does not).
  "node_modules/probe/package.json": JSON.stringify({ name: "probe", main: "esm/index.js" }),
  "node_modules/probe/esm/index.js": 'export const native = typeof __vite_ssr_exports__ === "undefined";\n',
};

let build: Build;
const stops: Array<() => unknown> = [];
let watchersBefore = 0;
const watchers = () => process.getActiveResourcesInfo().filter((r) => r === "FSEventWrap").length;

beforeAll(async () => {
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), text);
  }
  symlinkSync(join(nodeModules, "hono"), join(root, "node_modules", "hono"));
  watchersBefore = watchers();
  const options = {
    command: "start",
    rootDir: root,
    configFile: join(root, "ponder.config.ts"),
    schemaFile: join(root, "ponder.schema.ts"),
    apiDir: join(root, "src", "api"),
    apiFile: join(root, "src", "api", "index.ts"),
    indexingDir: join(root, "src"),
    generatedDir: join(root, "generated"),
    ponderDir: join(root, ".ponder"),
    hostname: "127.0.0.1",
    port: 0,
  };
  build = await createBuild({
    common: {
      options,
      logger,
      shutdown: { isKilled: false, add() {} },
      buildShutdown: { add: (stop: () => unknown) => stops.push(stop) },
    },
    cliOptions: { command: "start" },
  });
});

afterAll(async () => {
  for (const stop of stops) await stop();
  for (const name of GLOBALS) delete globals[name];
  rmSync(root, { recursive: true, force: true });
});

describe("Ponder's build (patched)", () => {
  it("leaves packages to Node and watches no files outside ponder dev", async () => {
    const config = await build.executeConfig();
    expect(config.status).toBe("success");
    expect(config.status === "success" && config.result.config.native, "the package ran in Node").toBe(true);
    // vite's watcher opens one watch per directory and file within milliseconds of its start.
    await new Promise((r) => setTimeout(r, 100));
    expect(watchers() - watchersBefore).toBe(0);
  });

  it("does not execute a test file beside the indexing code", async () => {
    const indexing = await build.executeIndexingFunctions();
    expect(indexing.status === "error" ? indexing.error.message : "success").toBe("success");
  });

  it("carries the API file's serverMiddleware and onHttpServer to the server", async () => {
    const api = await build.executeApi({ preBuild: {}, configBuild: {}, database: {} });
    expect(api.status).toBe("success");
    if (api.status !== "success") return;
    expect(typeof api.result.serverMiddleware).toBe("function");
    expect(typeof api.result.onHttpServer).toBe("function");
    const compiled = await build.compileApi({ apiResult: api.result });
    expect(compiled.status).toBe("success");
    if (compiled.status !== "success") return;
    expect(compiled.result.serverMiddleware).toBe(api.result.serverMiddleware);
    expect(compiled.result.onHttpServer).toBe(api.result.onHttpServer);
  });

  it("borrows a PGlite handed over for its directory: no second open, left open", async () => {
    const dataDir = join(root, "pglite");
    let queries = 0;
    let closes = 0;
    const handed = {
      query: async () => {
        queries++;
        return { rows: [{ version: "PostgreSQL 16" }], fields: [], affectedRows: 0 };
      },
      close: async () => {
        closes++;
      },
    };
    globals[SLOT] = { dataDir: resolve(dataDir), db: handed };
    try {
      const diagnostic = await build.databaseDiagnostic({
        preBuild: { databaseConfig: { kind: "pglite", options: { dataDir } } },
      });
      expect(diagnostic.status === "error" ? diagnostic.error.message : "success").toBe("success");
      expect({ queries, closes, opened: existsSync(dataDir) }).toEqual({ queries: 1, closes: 0, opened: false });
      expect((globals[SLOT] as { db: unknown } | undefined)?.db, "still there for the database").toBe(handed);
    } finally {
      delete globals[SLOT];
    }
  }, 30_000);
});
