/** A JSON file of the network's documents, read at the edge (the documents' parsing is packages/config/src/document.ts). */
import { readFileSync } from "node:fs";
import { NetworkDocumentError } from "../document.js";

export function readJsonFile<T>(path: string, what: string): T {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new NetworkDocumentError(`cannot read ${what} at ${path}: ${(error as Error).message}`, { path });
  }
  try {
    return JSON.parse(text) as T;
  } catch (error) {
    throw new NetworkDocumentError(`${what} at ${path} is not JSON: ${(error as Error).message}`, { path });
  }
}
