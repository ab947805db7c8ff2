/** The network document a re-derivation reads its contracts and accounts from (a file, or Base's as shipped). */
import { readFile } from "node:fs/promises";
import type { NetworkDocument } from "@kusd/config";
import { SourceError } from "./errors.js";

/** Base's network document as this package ships it (networks/base.json), from the sources or the build. */
async function defaultNetwork(): Promise<{ doc: NetworkDocument; name: string }> {
  for (const rel of ["../networks/base.json", "../../networks/base.json"]) {
    try {
      return { doc: JSON.parse(await readFile(new URL(rel, import.meta.url), "utf8")), name: "Base (shipped)" };
    } catch {
      // the other layout (sources or build)
    }
  }
  throw new SourceError("the Base network document shipped with kusd-verify is missing", {
    source: "networks/base.json",
  });
}

/** The network document at `path`, or Base's as shipped (null). */
export async function loadNetworkDocument(path: string | null): Promise<{ doc: NetworkDocument; name: string }> {
  if (path === null) return defaultNetwork();
  try {
    return { doc: JSON.parse(await readFile(path, "utf8")), name: path };
  } catch (cause) {
    throw new SourceError(`cannot read the network document ${path}: ${(cause as Error).message}`, {
      source: path,
      cause,
    });
  }
}
