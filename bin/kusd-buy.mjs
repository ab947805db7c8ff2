#!/usr/bin/env node
// Runs the TypeScript entry through tsx's loader (no build step), like packages/verify/bin/kusd-verify.mjs.
import { register } from "tsx/esm/api";

register();
await import(new URL("../clients/buy/main.ts", import.meta.url).href);
