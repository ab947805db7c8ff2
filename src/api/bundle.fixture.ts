// What bundle.test.ts bundles: a module reaching Ponder's tables by importing ponder.schema.ts.
import { psmSwap } from "../../ponder.schema.js";

export const table = psmSwap;
export const where = import.meta.url;
