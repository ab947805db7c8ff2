// The build bundles @kusd/core and @kusd/config (workspace packages that are not published), so
// the emitted declarations must not name them: each `from "@kusd/…"` becomes the relative path of
// that package's emitted index.d.ts under dist/types. Run from the package being built (kusd-verify,
// and kusd-monitor and kusd-buy, whose builds call it here).
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";

const TYPES = "dist/types";
const ENTRIES = { "@kusd/core": "packages/core/src/index.js", "@kusd/config": "packages/config/src/index.js" };

const files = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith(".d.ts") ? [join(dir, e.name)] : [],
  );

for (const file of files(TYPES)) {
  const text = readFileSync(file, "utf8");
  const local = text.replace(/(["'])(@kusd\/(?:core|config))\1/g, (_whole, quote, name) => {
    const path = relative(dirname(file), join(TYPES, ENTRIES[name]));
    return quote + (path.startsWith(".") ? path : `./${path}`) + quote;
  });
  if (local !== text) writeFileSync(file, local);
}
