/**
 * Process entry of `kusd-verify` (`npm run verify -- …`, or the package's bin/kusd-verify.mjs). Sets
 * process.exitCode instead of calling process.exit, so stdout is flushed when piped.
 */
import { runVerify } from "./verify.js";

const { exitCode, output } = await runVerify(process.argv.slice(2));
process.stdout.write(output);
process.exitCode = exitCode;
