/**
 * The house rules, checked by `npm test` (dependency-cruiser): the domain core is pure, the
 * clients speak HTTP to the service, and the devnet is a fixture of the local stack and the tests
 * that production code never imports.
 */
module.exports = {
  forbidden: [
    {
      name: "core-is-pure",
      comment:
        "core/ holds the domain rules: it imports nothing of the repository outside core/ (viem and node built-ins only)",
      severity: "error",
      from: { path: "^core/" },
      to: { path: "^(api|src|devnet|test|bench|abis|networks|bin)/|^ponder\\.(config|schema)\\.ts$" },
    },
    {
      name: "production-free-of-devnet",
      comment:
        "only stack/ (npm start), tests and benchmarks use the devnet; the indexer, the API, the core and the clients read network documents",
      severity: "error",
      from: { path: "^(core|api|src|clients)/|^ponder\\.(config|schema)\\.ts$" },
      to: { path: "^devnet/" },
    },
    {
      name: "clients-speak-http",
      comment:
        "clients/ call the service over HTTP: they use the core and the network configuration, never the server's code",
      severity: "error",
      from: { path: "^clients/" },
      to: { path: "^(api|src/(indexing|api)|stack|devnet)/|^ponder\\.(config|schema)\\.ts$" },
    },
    {
      name: "page-speaks-http",
      comment:
        "web/ is the reserves page: it runs in the browser, reads the public API over HTTP and shares only the pure core (the verifier)",
      severity: "error",
      from: { path: "^web/" },
      to: { path: "^(api|src|stack|devnet|clients|bench|test)/|^ponder\\.(config|schema)\\.ts$" },
    },
    {
      name: "verifier-stands-alone",
      comment:
        "packages/verify is installed alone (npm pack): it imports the pure core and itself, nothing of the server, the indexer, the clients or the devnet",
      severity: "error",
      from: { path: "^packages/verify/" },
      to: {
        path: "^(api|src|clients|stack|devnet|web|bench|test|abis|networks|bin|scripts)/|^ponder\\.(config|schema)\\.ts$",
      },
    },
    {
      name: "verifier-through-its-index",
      comment:
        "everything else uses the verifier package through its public entries: packages/verify/src/index.ts (any runtime) and node.ts (Node.js: the command line, files)",
      severity: "error",
      from: { pathNot: "^packages/verify/" },
      to: { path: "^packages/verify/", pathNot: "^packages/verify/src/(index|node)\\.ts$" },
    },
    {
      name: "risk-reads-no-reserves-feature",
      comment:
        "api/reserves/routes.ts warms the risk status's chain part beside /api/por; the risk service reads what it shares with the reserves from api/io (the venue now), so the two feature folders never form a loop",
      severity: "error",
      from: { path: "^api/risk/" },
      to: { path: "^api/reserves/" },
    },
    {
      name: "no-circular",
      severity: "error",
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    exclude: { path: "^(node_modules|generated|\\.ponder|web/dist)/" },
  },
};
