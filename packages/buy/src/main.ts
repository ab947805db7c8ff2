/** Process entry of `kusd-buy` (bin/kusd-buy.mjs). */
import { runBuy } from "./buy.js";

const { exitCode, output } = await runBuy(process.argv.slice(2), process.env);
process.stdout.write(output);
process.exitCode = exitCode;
