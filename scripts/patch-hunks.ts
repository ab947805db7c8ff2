/**
 * The diff hunks of the patch files patch-package applies on install (patches/*.patch), each
 * named by the file it changes (its path after `node_modules/`) and the line of the published
 * file it starts at: `ponder/dist/esm/utils/queue.js@-10` is the hunk `@@ -10,…` of that file.
 * The name stays while other hunks of the same file change; it changes only when the hunk's own
 * place in the published file does.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

export type Hunk = {
  /** `<path after node_modules/>@-<first line in the published file>` */
  key: string;
  /** The patch file (`ponder+0.16.10.patch`). */
  patch: string;
  /** The changed file's path after `node_modules/`. */
  file: string;
  /** The `@@ … @@` line. */
  header: string;
  /** The file's `diff --git`, `index`, `---` and `+++` lines. */
  fileHeader: string[];
  /** The hunk's body: context, removed and added lines. */
  body: string[];
  /** Lines the hunk adds and removes. */
  added: number;
  removed: number;
};

const FILE_START = /^diff --git a\/node_modules\/(\S+) b\//;
const HUNK_START = /^@@ -(\d+)(?:,\d+)? \+\d+(?:,\d+)? @@/;

/** The hunks of one patch file's text, in order. */
export function parsePatch(patch: string, text: string): Hunk[] {
  const hunks: Hunk[] = [];
  let file: string | null = null;
  let fileHeader: string[] = [];
  let current: Hunk | null = null;
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  for (const line of lines) {
    const fileStart = FILE_START.exec(line);
    if (fileStart) {
      file = fileStart[1]!;
      fileHeader = [line];
      current = null;
      continue;
    }
    const hunkStart = HUNK_START.exec(line);
    if (hunkStart) {
      if (file === null) throw new Error(`${patch}: a hunk before any file: ${line}`);
      current = {
        key: `${file}@-${hunkStart[1]}`,
        patch,
        file,
        header: line,
        fileHeader,
        body: [],
        added: 0,
        removed: 0,
      };
      hunks.push(current);
      continue;
    }
    if (current === null) {
      fileHeader.push(line);
      continue;
    }
    current.body.push(line);
    if (line.startsWith("+")) current.added++;
    else if (line.startsWith("-")) current.removed++;
  }
  return hunks;
}

/** The patch files of a directory (`patches/`), by name. */
export function patchFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".patch"))
    .sort();
}

/** Every hunk of every patch file in `dir`. */
export function readHunks(dir: string): Hunk[] {
  return patchFiles(dir).flatMap((f) => parsePatch(f, readFileSync(join(dir, f), "utf8")));
}

/** The package a patch file patches: `ponder+0.16.10.patch` → `ponder`, `@scope+name+1.0.0.patch` → `@scope/name`. */
export function patchedPackage(patch: string): string {
  const parts = patch.replace(/\.patch$/, "").split("+");
  parts.pop();
  return parts.join("/");
}

/** A patch holding only `hunks` (each under its file's header), for `git apply`. */
export function patchOf(hunks: Hunk[]): string {
  const out: string[] = [];
  let lastFile: string | null = null;
  for (const h of hunks) {
    if (h.file !== lastFile) out.push(...h.fileHeader);
    lastFile = h.file;
    out.push(h.header, ...h.body);
  }
  return `${out.join("\n")}\n`;
}

/** The lines of a patch file (as `wc -l` counts them). */
export function lineCount(text: string): number {
  return text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
}
