/**
 * Bundles @kusd/core into dist/ on prepack (packages/package-build.ts).
 */
import { packageBuild } from "../package-build.js";

export default packageBuild(new URL("./package.json", import.meta.url), { main: "src/main.ts", index: "src/index.ts" });
