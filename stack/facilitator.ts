/**
 * The settling process: the in-process x402 facilitator (the gas key `KUSD_FACILITATOR_PRIVATE_KEY`)
 * served over HTTP for every API process of a deployment to settle through, so one process owns
 * the key's nonces (api/paid/facilitator-server.ts). Its environment is parsed here, once.
 *
 *   KUSD_FACILITATOR_PRIVATE_KEY=0x… PORT=42071 npm run serve:facilitator
 *   KUSD_X402_FACILITATOR_URL=http://10.0.0.5:42071 npm start   # and every replica the same
 */
import { serve } from "@hono/node-server";
import { readServiceEnv } from "@kusd/config";
import { loadNetwork } from "@kusd/config/node";
import { createFacilitatorClient } from "../api/paid/facilitator.js";
import { facilitatorServer } from "../api/paid/facilitator-server.js";

const env = readServiceEnv(process.env);
const pay = (await loadNetwork(env)).payments;
if (pay.facilitator?.kind !== "local" || !pay.recipient) {
  console.error(
    "the facilitator needs its gas key (KUSD_FACILITATOR_PRIVATE_KEY) and the payee (KUSD_PAYMENT_RECIPIENT or the network document's); KUSD_X402_FACILITATOR_URL must be unset here",
  );
  process.exit(2);
}
const port = env.PORT ?? 42071;
const hostname = env.KUSD_FACILITATOR_HOST ?? "127.0.0.1";
const app = facilitatorServer({
  facilitator: createFacilitatorClient({ ...pay.facilitator, network: pay.network }),
  recipient: pay.recipient,
  asset: pay.asset.address,
  network: pay.network,
});
serve({ fetch: app.fetch, port, hostname });
console.log(`x402 facilitator on http://${hostname}:${port} (/verify, /settle, /supported) for ${pay.recipient}`);
