/**
 * The API loaded as one ES module instead of module by module. Ponder runs its API file under
 * vite-node, which transforms and source-maps each of the ~300 modules the service imports at
 * every start: 4.5 s of a 12 s restart (a CPU profile: vite's SSR transform, its source maps and
 * the garbage they make). esbuild bundles the same files in about 0.1 s; Node loads the result
 * natively, as vite-node already loads every package. Ponder's tables are the ones it hands the
 * API (`ponder:schema`, whose database schema Ponder sets at startup): the bundle's imports of
 * ponder.schema.ts resolve to those, never to a copy of its own. Bundles are kept by content in
 * node_modules/.cache/kusd-api (the newest few), so processes started together share one file.
 * The bundle carries its source map, read only under `node --enable-source-maps` (NODE_OPTIONS):
 * turned on for every start it cost 0.9 s of a backfill's main thread (a CPU profile: Node reading
 * and parsing this map and those of every package loaded after it).
 */
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, renameSync, statSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const SCHEMA_KEY = Symbol.for("kusd.ponderSchema");
const KEEP = 8;

/**
 * `entry` (a path relative to this file) bundled with its relative imports and the workspace's
 * packages, other packages left to Node, and imported; `schema` is what its imports of ponder.schema.ts get.
 */
export async function importBundled<T>(
  entry: string,
  schema: Record<string, unknown>,
  dir = fileURLToPath(new URL("../../node_modules/.cache/kusd-api/", import.meta.url)),
): Promise<T> {
  (globalThis as Record<symbol, unknown>)[SCHEMA_KEY] = schema;
  const { build } = await import("esbuild");
  const names = Object.keys(schema).filter((n) => /^[A-Za-z_$][\w$]*$/.test(n));
  const result = await build({
    entryPoints: [fileURLToPath(new URL(entry, import.meta.url))],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    write: false,
    // Not written there: it places the source map's paths relative to the cache directory.
    outfile: join(dir, "api.mjs"),
    sourcemap: "inline",
    sourcesContent: false,
    logLevel: "silent",
    plugins: [
      {
        // Packages are left to Node, except the workspace's own (@kusd/*), whose entries are
        // TypeScript sources that Node cannot load: those are bundled like relative imports.
        name: "external-packages",
        setup(b) {
          b.onResolve({ filter: /^[^./]/ }, (args) =>
            args.path.startsWith("@kusd/") ? undefined : { external: true },
          );
        },
      },
      {
        name: "ponder-schema",
        setup(b) {
          b.onResolve({ filter: /(^|\/)ponder\.schema(\.[jt]s)?$/ }, () => ({
            path: "ponder:schema",
            namespace: "kusd",
          }));
          b.onLoad({ filter: /.*/, namespace: "kusd" }, () => ({
            contents: `const s = globalThis[Symbol.for(${JSON.stringify(SCHEMA_KEY.description)})];\nexport const { ${names.join(", ")} } = s;\n`,
            loader: "js",
          }));
        },
      },
    ],
  });
  const code = result.outputFiles[0]!.contents;
  const file = join(dir, `api-${createHash("sha256").update(code).digest("hex").slice(0, 16)}.mjs`);
  mkdirSync(dir, { recursive: true });
  try {
    utimesSync(file, new Date(), new Date()); // kept: the newest stay
  } catch {
    const partial = `${file}.${process.pid}.tmp`;
    writeFileSync(partial, code);
    renameSync(partial, file); // whole or not at all, whoever else writes the same bundle
  }
  prune(dir, file);
  // An .mjs file under node_modules: vite-node leaves it to Node, as it does every package.
  return (await import(/* @vite-ignore */ file)) as T;
}

/** Removes all but the newest bundles: a bundle is only read when a process starts. */
function prune(dir: string, current: string) {
  try {
    const bundles = readdirSync(dir)
      .filter((f) => f.endsWith(".mjs"))
      .map((f) => ({ path: join(dir, f), at: statSync(join(dir, f)).mtimeMs }))
      .sort((a, b) => b.at - a.at);
    for (const old of bundles.slice(KEEP)) if (old.path !== current) unlinkSync(old.path);
  } catch {
    // another process pruned first
  }
}
