/**
 * `npm run lint:narration` (part of `npm run lint`): every tracked text file of the project
 * (docs, code, tests, configuration) is searched for narration of how the work was organised
 * (scripts/narration.ts); each line found is printed as file:line, and the exit code is 1.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { narrationIn } from "./narration.js";

const TEXT = /\.(md|ts|tsx|js|cjs|mjs|json|sh|yaml|yml|html|css)$|(^|\/)(run|[A-Za-z-]+)$/;
const SKIP = new Set(["package-lock.json"]);
const files = execFileSync("git", ["ls-files", "-z"], { encoding: "utf8" })
  .split("\0")
  .filter((f) => f && TEXT.test(f) && !f.startsWith("patches/") && !SKIP.has(f));

let found = 0;
for (const file of files) {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    continue; // listed but not on disk (a deleted file not yet committed)
  }
  for (const hit of narrationIn(text)) {
    found += 1;
    console.log(`${file}:${hit.line}: ${hit.text.slice(0, 160)}`);
  }
}
if (found > 0) {
  console.log(
    `\n${found} line(s) narrate how the work was organised: say what the project is, with dates and commits (scripts/narration.ts)`,
  );
  process.exit(1);
}
console.log(`no narration in ${files.length} files`);
