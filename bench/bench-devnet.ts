/**
 * A devnet for a benchmark: a new one at `scale` on free ports written to `file`, or, when
 * `reuse` names a running devnet's deployment file (`--devnet FILE`), that one on its own ports.
 */
import { readDeployment } from "../devnet/deployment.js";
import { type Devnet, startDevnet } from "../devnet/devnet.js";
import { freePort } from "../test/helpers/ports.js";

export async function benchDevnet(o: { scale: number; file: string; reuse?: string | undefined }): Promise<Devnet> {
  const reused = o.reuse ? readDeployment(o.reuse) : null;
  const portOf = (url: string) => Number(new URL(url).port);
  return startDevnet({
    ports: reused
      ? {
          base: portOf(reused.chains.base.rpcUrl),
          ethereum: portOf(reused.chains.ethereum.rpcUrl),
          venue: portOf(reused.venue.url),
        }
      : { base: await freePort(), ethereum: await freePort(), venue: await freePort() },
    deploymentFile: reused ? o.reuse! : o.file,
    scale: reused?.scale ?? o.scale,
    reuse: Boolean(reused),
  });
}
