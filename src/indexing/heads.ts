import { ponder } from "ponder:registry";
import { chainHead } from "ponder:schema";

ponder.on("EthereumHead:block", async ({ event, context }) => {
  await context.db
    .insert(chainHead)
    .values({ id: "ethereum", chainId: 1, blockNumber: event.block.number, timestamp: event.block.timestamp })
    .onConflictDoUpdate({ blockNumber: event.block.number, timestamp: event.block.timestamp });
});
