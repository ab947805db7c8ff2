/** Process entry of `kusd-verify-registry` (bin/kusd-verify-registry.mjs). */
import { runVerifyRegistry } from "./verify-registry.js";

const { exitCode, output } = await runVerifyRegistry(process.argv.slice(2));
process.stdout.write(output);
process.exitCode = exitCode;
