#!/usr/bin/env node
// Runs the TypeScript entry through tsx's loader, so the bin works straight after `npm install`
// with no build step. tsx is a devDependency of this (private) package.
import { register } from "tsx/esm/api";

register();
await import(new URL("../clients/verify/main.ts", import.meta.url).href);
