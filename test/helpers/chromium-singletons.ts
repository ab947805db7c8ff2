/**
 * Chromium keeps its single-instance socket in `$TMPDIR/org.chromium.Chromium.XXXXXX/` and removes
 * the folder when it exits in order; Lighthouse's chrome-launcher ends it without that, and the
 * folder was left behind (two a Lighthouse test run). `chromiumSingletons()` notes the folders
 * there now; `removeDeadSingletons(before)` removes the ones made since whose socket nobody
 * listens on any more: only the leftovers of a Chromium that has exited, never a running one's.
 */
import { readdirSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const chromiumSingletons = (): Set<string> =>
  new Set(
    readdirSync(tmpdir())
      .filter((n) => n.startsWith("org.chromium.Chromium."))
      .map((n) => join(tmpdir(), n)),
  );

const listening = (socket: string) =>
  new Promise<boolean>((resolve) => {
    const c = connect(socket);
    c.once("connect", () => {
      c.destroy();
      resolve(true);
    });
    c.once("error", () => resolve(false));
  });

export async function removeDeadSingletons(before: ReadonlySet<string>): Promise<number> {
  let removed = 0;
  for (const dir of chromiumSingletons()) {
    if (before.has(dir) || (await listening(join(dir, "SingletonSocket")))) continue;
    rmSync(dir, { recursive: true, force: true });
    removed++;
  }
  return removed;
}
