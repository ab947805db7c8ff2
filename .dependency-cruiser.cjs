/**
 * The house rules, checked by `npm test` (dependency-cruiser): the domain core is pure, and the
 * devnet is a test and local-run fixture that production code never imports.
 */
module.exports = {
  forbidden: [
    {
      name: "core-is-pure",
      comment: "core/ holds the domain rules: it imports nothing of the repository outside core/ (viem and node built-ins only)",
      severity: "error",
      from: { path: "^core/" },
      to: { path: "^(api|src|devnet|test|bench|abis|networks|bin)/|^ponder\\.(config|schema)\\.ts$" },
    },
    {
      name: "production-free-of-devnet",
      comment: "the indexer, the API and the core never import the devnet (the devnet writes a network document; production reads documents)",
      severity: "error",
      from: { path: "^(core|api|src)/|^ponder\\.(config|schema)\\.ts$" },
      to: { path: "^devnet/" },
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
    exclude: { path: "^(node_modules|generated|\\.ponder)/" },
  },
};
