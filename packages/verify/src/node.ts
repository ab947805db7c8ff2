/**
 * The package's entry for Node.js only: the `kusd-verify` command line and reading a document from
 * a file or URL (node:fs), beside everything index.ts exports.
 */

export { SourceError, UsageError } from "./cli/errors.js";
export { loadNetworkDocument } from "./cli/network-file.js";
export { prettyJsonText } from "./cli/pretty-json.js";
export { loadSource, locateArtifact, type SourceIo } from "./cli/source.js";
export { runVerify, type VerifyIo, type VerifyOutcome } from "./cli/verify.js";
export * from "./index.js";
