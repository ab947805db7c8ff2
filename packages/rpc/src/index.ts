/** The JSON-RPC transport every part of the process uses, each call counted by what it was for. */
export * from "./rpc-calls.js";
