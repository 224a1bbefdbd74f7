// @ts-check
const { join } = require('node:path');

/**
 * The layers of oms-conformance, bottom to top (docs/architecture.md, "Layers"). A file may import its own
 * layer and the layers below it, never one above, and no circle of files; type-only imports count too.
 * `npm run lint:layers` (part of `npm test`) fails on a violation and names the import; selftest/layers.test.ts
 * proves the rules catch one.
 */
const LAYERS = [
  { name: 'floor', paths: ['contract', 'config', 'requirements'] },
  { name: 'checks', paths: ['checks'] },
  { name: 'generators and model', paths: ['generators', 'model'] },
  { name: 'harness', paths: ['harness'] },
  { name: 'tests', paths: ['tests'] },
  { name: 'reporter and cli', paths: ['reporter', 'cli', 'playwright\\.config\\.ts'] },
  // The proof (the self-tests, with the reference server's faults, variants, knobs and hostile modes) and the
  // benchmarks sit above the product, side by side: each may use the other, never in a circle.
  { name: 'proof and bench', paths: ['selftest', 'bench'] },
];

const pattern = (paths) => `^(${paths.join('|')})(/|$)`;

/** One rule per layer: nothing in it imports a layer above it. */
const upward = LAYERS.slice(0, -1).map((layer, index) => ({
  name: `no-upward-from-${layer.name.replace(/ /g, '-')}`,
  comment: `${layer.paths.join(', ')} (layer "${layer.name}") may import only its own layer and the ones below it: ${LAYERS.slice(0, index).map((l) => l.name).join(', ') || 'none'}`,
  severity: 'error',
  from: { path: pattern(layer.paths) },
  to: { path: pattern(LAYERS.slice(index + 1).flatMap((above) => above.paths)) },
}));

/** The embedded reference server, the product's: it stands on the contract and the settings alone, and the harness starts it. */
const referenceServer = [
  {
    name: 'reference-on-the-floor',
    comment: 'reference/ (the embedded reference server) may import only contract/ and config/: faults, variants and knobs live with the proof (selftest/reference/)',
    severity: 'error',
    from: { path: '^reference/' },
    to: { path: pattern(['requirements', ...LAYERS.slice(1).flatMap((layer) => layer.paths)]) },
  },
  {
    name: 'reference-started-by-the-harness',
    comment: 'only harness/ and the layers above it start the reference server: contract/, config/, requirements/, checks/, generators/ and model/ know nothing of it',
    severity: 'error',
    from: { path: pattern(['contract', 'config', 'requirements', 'checks', 'generators', 'model']) },
    to: { path: '^reference/' },
  },
];

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'a circle of files is a design bug: move what both sides need down a layer',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    ...upward,
    ...referenceServer,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // selftest/fixtures/layers holds the violations selftest/layers.test.ts shows the rules catching.
    exclude: { path: '^(node_modules|test-results|conformance-report|selftest/fixtures/layers|\\.)' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: join(__dirname, 'tsconfig.json') },
  },
};
