/**
 * Who holds a PGlite directory's Ponder schema: PGlite is one process's embedded database, so
 * the holder is a process of this machine, written down beside the data when it starts. A note
 * whose process no longer runs is a dead holder's.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { dirname } from "node:path";
import { z } from "zod";

const HolderSchema = z.object({ pid: z.int().positive(), host: z.string(), schema: z.string() });
export type Holder = z.infer<typeof HolderSchema>;

// Beside the directory, not in it: PGlite takes a non-empty directory without its files for a
// foreign one and refuses to initialise it.
export const holderFile = (pgliteDir: string) => `${pgliteDir.replace(/\/+$/, "")}.kusd-holder.json`;

export function readHolder(pgliteDir: string): Holder | null {
  try {
    return HolderSchema.parse(JSON.parse(readFileSync(holderFile(pgliteDir), "utf8")));
  } catch {
    return null; // none, or not ours to read
  }
}

/** Whether `pid` is a running `ponder` process of this machine (a reused pid of another program is not). */
export function ponderRunning(pid: number): boolean {
  try {
    const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
    return argv.some((a) => /(^|\/)ponder(\.js)?$/.test(a));
  } catch {
    try {
      process.kill(pid, 0); // no /proc (macOS): alive is alive
      return true;
    } catch (e) {
      return (e as NodeJS.ErrnoException).code === "EPERM";
    }
  }
}

/** A holder is dead when it was a process of this machine that no longer runs. Another machine's is never judged. */
export const holderDead = (h: Holder, isRunning: (pid: number) => boolean = ponderRunning) =>
  h.host === hostname() && !isRunning(h.pid);

/**
 * Writes this process down as the holder. The note stays after it exits: a run stopped before
 * Ponder's own shutdown finished (a supervisor's SIGKILL after its grace time) leaves the schema
 * marked locked too, and the next start clears the mark of any holder that is not running.
 */
export function holdWithThisProcess(pgliteDir: string, schema: string): void {
  const file = holderFile(pgliteDir);
  mkdirSync(dirname(file), { recursive: true }); // a first start: Ponder makes the rest a moment later
  writeFileSync(file, JSON.stringify({ pid: process.pid, host: hostname(), schema } satisfies Holder));
}
