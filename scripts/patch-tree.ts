/**
 * A copy of the repository in a temporary directory whose patched packages can differ from the
 * real node_modules, which other processes on the machine keep using: the tracked and untracked
 * (not ignored) files of the working tree, and a node_modules of symbolic links to every entry of
 * the real one but the packages patches/ patches, which are real copies, to which some hunks are
 * applied in reverse (`git apply -R`). Workspace links and `.bin` are recreated as they are, so
 * they point into the copy. `remove()` deletes the whole directory.
 */
import { execFileSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { type Hunk, patchedPackage, patchFiles, patchOf } from "./patch-hunks.js";

export type PatchTree = { dir: string; remove: () => void };

/** Every path of the working tree git does not ignore, deleted files left out. */
function workingTreeFiles(root: string): string[] {
  const out = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "-z"], {
    cwd: root,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  return [...new Set(out.split("\0").filter(Boolean))].filter((f) => existsSync(join(root, f)));
}

/** Copies a link as it is (a relative workspace link keeps pointing inside the copy). */
function copyLink(from: string, to: string): void {
  symlinkSync(readlinkSync(from), to);
}

/**
 * `node_modules` of `root` mirrored into `dir`: every entry a link to the real one, but the links
 * the real one holds (workspace packages, `.bin`) copied as links, and `copied` packages copied
 * (their own nested node_modules stay links).
 */
function mirrorNodeModules(root: string, dir: string, copied: Set<string>): void {
  const real = join(root, "node_modules");
  const mirror = join(dir, "node_modules");
  mkdirSync(mirror);
  const place = (name: string) => {
    const from = join(real, name);
    const to = join(mirror, name);
    const stat = lstatSync(from);
    if (stat.isSymbolicLink()) return copyLink(from, to);
    if (copied.has(name)) {
      cpSync(from, to, {
        recursive: true,
        verbatimSymlinks: true,
        filter: (src) => src !== join(from, "node_modules"),
      });
      if (existsSync(join(from, "node_modules"))) symlinkSync(join(from, "node_modules"), join(to, "node_modules"));
      return;
    }
    symlinkSync(from, to);
  };
  for (const entry of readdirSync(real)) {
    if (entry === ".bin") {
      mkdirSync(join(mirror, entry));
      for (const bin of readdirSync(join(real, entry))) copyLink(join(real, entry, bin), join(mirror, entry, bin));
    } else if (entry.startsWith(".")) {
      // npm's and the tools' own state (.package-lock.json, .cache, .vite): each copy starts its own.
    } else if (entry.startsWith("@")) {
      mkdirSync(join(mirror, entry));
      for (const scoped of readdirSync(join(real, entry))) place(`${entry}/${scoped}`);
    } else {
      place(entry);
    }
  }
}

/**
 * A copy of `root` in a new temporary directory with `reverted` hunks applied in reverse to its
 * copies of the patched packages. Throws (after removing it) if a hunk does not apply.
 */
export function makePatchTree(root: string, reverted: Hunk[], prefix = "kusd-patch-tree-"): PatchTree {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  try {
    for (const file of workingTreeFiles(root)) {
      const from = join(root, file);
      const to = join(dir, file);
      mkdirSync(dirname(to), { recursive: true });
      if (lstatSync(from).isSymbolicLink()) copyLink(from, to);
      else cpSync(from, to);
    }
    const copied = new Set(patchFiles(join(root, "patches")).map(patchedPackage));
    mirrorNodeModules(root, dir, copied);
    if (reverted.length > 0) {
      const patchFile = join(dir, ".reverted.patch");
      writeFileSync(patchFile, patchOf(reverted));
      execFileSync("git", ["apply", "-R", "--whitespace=nowarn", patchFile], { cwd: dir, stdio: "pipe" });
      rmSync(patchFile);
    }
    return { dir, remove };
  } catch (error) {
    remove();
    throw error;
  }
}
