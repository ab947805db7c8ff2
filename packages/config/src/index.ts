/**
 * The service's configuration, parsed once: the environment schema and the network document, turned
 * into the domain's NetworkConfig. Any runtime (the verifier runs it in a browser too); reading the
 * files is in ./node.
 */
export * from "./document.js";
export * from "./env.js";
export * from "./env-table.js";
export * from "./from-document.js";
