/**
 * Bundles @kusd/core, @kusd/config and kusd-verify's sources (which verify_statement and
 * verify_report run) into dist/ on prepack (packages/package-build.ts); `npm run build` then copies
 * kusd-verify's networks/ beside dist/, where the bundled verifier reads Base's network document.
 */
import { packageBuild } from "../package-build.js";

export default packageBuild(new URL("./package.json", import.meta.url), { main: "src/main.ts" });
