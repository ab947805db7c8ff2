/** Reading the network documents from disk and applying a published registry source (Node.js). */
export * from "./files/network-files.js";
export * from "./files/read-json.js";
export * from "./files/registry-source.js";
