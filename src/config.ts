/**
 * Ponder's process (ponder.config.ts, the indexing functions and the API it serves): its
 * environment, parsed once here and nowhere else, and the network it indexes.
 */
import { readRunnerEnv, readServiceEnv } from "@kusd/config";
import { loadNetwork, networkDocument } from "@kusd/config/node";

export const serviceEnv = readServiceEnv(process.env);
export const runnerEnv = readRunnerEnv(process.env);
export const network = await loadNetwork(serviceEnv);
/** The document `network` was made from, as the API serves it (GET /api/network). */
export const networkDoc = networkDocument(serviceEnv);
