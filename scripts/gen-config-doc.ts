/** `npm run gen:config-doc`: rewrites docs/configuration.md's tables from the environment schemas. */
import { readFileSync, writeFileSync } from "node:fs";
import { withEnvironmentTables } from "@kusd/config";

const file = new URL("../docs/configuration.md", import.meta.url);
const before = readFileSync(file, "utf8");
const after = withEnvironmentTables(before);
if (after !== before) writeFileSync(file, after);
console.log(after === before ? "docs/configuration.md is up to date" : "docs/configuration.md rewritten");
