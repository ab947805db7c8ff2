#!/usr/bin/env node
// The installed package runs its build (dist/, made by `npm pack`); inside the repository, where
// no build is kept, the TypeScript sources run through tsx's loader, so a change is never shadowed
// by an old build.
import { existsSync } from "node:fs";

const built = new URL("../dist/main.js", import.meta.url);
if (existsSync(built)) {
  await import(built.href);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import(new URL("../src/main.ts", import.meta.url).href);
}
