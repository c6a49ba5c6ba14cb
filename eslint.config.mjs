// @ts-check
import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';

// The engine's folders, lowest first: a folder imports only folders below it (types included).
const ENGINE_LAYERS = [
  'logging',
  'errors',
  'serde',
  'windowing',
  'processor',
  'state',
  'kstream',
  'cluster',
  'client',
  'query',
  'runtime',
  'reset',
  'cli',
];
/** The zones keeping each of `layers` (folders of `root`, lowest first) from the ones above it. */
const layerZones = (root, layers) =>
  layers.slice(0, -1).map((layer, i) => ({
    target: `${root}/${layer}`,
    from: layers.slice(i + 1).map((above) => `${root}/${above}`),
    message: `${root.slice(2)}/${layer} is below ${layers.slice(i + 1).join(', ')}: move the shared part down instead.`,
  }));
const LAYER_ZONES = layerZones('./libs/streams/src', ENGINE_LAYERS);

// The runtime's internal folders, lowest first, by the same rule: the metrics' sensors; a
// task's topics, restore and processing; the commit; a task's state on disk; standby and active
// tasks; the assignment; the queries; the stream thread; the client's lifecycle (which
// KafkaStreams, above them all, delegates to).
const RUNTIME_LAYERS = [
  'metrics',
  'topics',
  'restore',
  'task',
  'commit',
  'task-state',
  'standby',
  'global',
  'active-tasks',
  'assignment',
  'queries',
  'thread',
  'lifecycle',
];
const RUNTIME_ZONES = layerZones('./libs/streams/src/runtime/internals', RUNTIME_LAYERS);

// The Nest module's folders, lowest first: a folder imports only folders below it and
// streams.constants.ts (which imports none of them); above them all, at src/, the start-up,
// the module definition, the module and index.ts.
const NEST_SRC = './libs/nestjs/src';
const NEST_LAYERS = [
  'errors',
  'settings',
  'decorators',
  'discovery',
  'security',
  'client',
  'ownership',
  'health',
  'metrics',
  'http',
  'queries',
  'routing',
  'dashboard',
  'management',
];
const NEST_TOP = [
  'streams.runtime.ts',
  'streams-module.definition.ts',
  'streams.module.ts',
  'index.ts',
].map((file) => `${NEST_SRC}/${file}`);
const NEST_ZONES = [
  {
    target: `${NEST_SRC}/streams.constants.ts`,
    from: [...NEST_LAYERS.map((layer) => `${NEST_SRC}/${layer}`), ...NEST_TOP],
    message:
      'libs/nestjs/src/streams.constants.ts is the bottom: it imports no part of the module.',
  },
  ...NEST_LAYERS.map((layer, i) => ({
    target: `${NEST_SRC}/${layer}`,
    from: [...NEST_LAYERS.slice(i + 1).map((above) => `${NEST_SRC}/${above}`), ...NEST_TOP],
    message: `libs/nestjs/src/${layer} is below ${[...NEST_LAYERS.slice(i + 1), 'the module'].join(', ')}: move the shared part down instead.`,
  })),
];

const NO_NEST = {
  group: ['@nestjs/*'],
  message: 'libs/streams and libs/testing are framework-free: no Nest imports.',
};
const DEEP_PACKAGE_IMPORT = {
  group: ['@nest-streams/*/**'],
  message: "Import the package root ('@nest-streams/streams'): everything else is internal.",
};
const SOURCES_OF = (pkg) => ({
  group: [`**/${pkg}/src`, `**/${pkg}/src/**`],
  message: `Import @nest-streams/${pkg} by name, not its sources.`,
});
/** @platformatic/kafka: only the engine's adapter of that client imports it. */
const NO_PLATFORMATIC = {
  group: ['@platformatic/*'],
  message:
    'Only libs/streams/src/client/platformatic/ imports @platformatic/kafka: use the ports of libs/streams/src/client/.',
};
/** kafkajs (values and types): only the engine's adapter of that client imports it. */
const NO_KAFKAJS = {
  regex: '^kafkajs(/|$)',
  message:
    'Only libs/streams/src/client/kafkajs/ imports kafkajs: use the ports of libs/streams/src/client/ (specs: make kafkajs test data in libs/streams/test-support/).',
};
/** Within the kafkajs adapter, kafkajs loads only through the module that fixes it first. */
const KAFKAJS_THROUGH_FIXES = {
  name: 'kafkajs',
  allowTypeImports: true,
  message: "Import kafkajs' values from libs/streams/src/client/kafkajs/kafkajs.",
};

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      'node_modules/**',
      '.kafka/**',
      '**/target/**',
      'coverage/**',
      '.readme-snippets/**',
      'docs/api/**',
      '**/*.js',
      '**/*.mjs',
      // The cluster page's browser scripts are linted (below).
      '!libs/nestjs/assets/dashboard/*.js',
    ],
  },
  eslint.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    languageOptions: {
      globals: { ...globals.node, ...globals.jest },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-restricted-imports': 'off',
    },
  },
  {
    // The cluster page's scripts: classic browser scripts sharing one scope (one file's
    // functions are used by the next), type-checked by their own tsconfig (`npm run
    // typecheck`), which also catches undefined names.
    files: ['libs/nestjs/assets/dashboard/*.js'],
    languageOptions: { sourceType: 'script', globals: { ...globals.browser } },
    rules: {
      'no-undef': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { vars: 'local', argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  {
    // The engine is framework-free: it never imports Nest. It reaches Kafka through the ports of
    // its client layer (src/client/): only that layer's adapters import a Kafka client.
    files: ['libs/streams/**/*.ts'],
    ignores: [
      'libs/streams/src/client/kafkajs/**',
      'libs/streams/src/client/platformatic/**',
      'libs/streams/src/client/**/*.spec.ts',
      'libs/streams/test-support/**',
    ],
    rules: {
      'no-restricted-imports': ['error', { patterns: [NO_NEST, NO_PLATFORMATIC, NO_KAFKAJS] }],
    },
  },
  {
    files: ['libs/streams/src/client/kafkajs/**/*.ts'],
    ignores: ['libs/streams/src/client/kafkajs/kafkajs.ts', '**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [NO_NEST, NO_PLATFORMATIC], paths: [KAFKAJS_THROUGH_FIXES] },
      ],
    },
  },
  {
    files: ['libs/streams/src/client/platformatic/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [NO_NEST, NO_KAFKAJS] }],
    },
  },
  {
    // The fixing module itself, the client layer's specs, and the engine's test support (which
    // makes kafkajs test data for the specs outside the client layer).
    files: [
      'libs/streams/src/client/kafkajs/kafkajs.ts',
      'libs/streams/src/client/**/*.spec.ts',
      'libs/streams/test-support/**/*.ts',
    ],
    rules: {
      'no-restricted-imports': ['error', { patterns: [NO_NEST] }],
    },
  },
  {
    // The Nest module uses the engine through its public API only.
    files: ['libs/nestjs/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [DEEP_PACKAGE_IMPORT, SOURCES_OF('streams')] },
      ],
    },
  },
  {
    // The module's specs may take free ports from the development broker's tools.
    files: ['libs/nestjs/**/*.spec.ts', 'libs/nestjs/test-support/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@nest-streams/*/**', '!@nest-streams/testing/kafka'],
              message: DEEP_PACKAGE_IMPORT.message,
            },
            SOURCES_OF('streams'),
          ],
        },
      ],
    },
  },
  {
    // The test driver is framework-free, and drives the engine through its public API and the
    // `@nest-streams/streams/internals` subpath (the one documented subpath).
    files: ['libs/testing/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            NO_NEST,
            {
              group: ['@nest-streams/*/**', '!@nest-streams/streams/internals'],
              message: DEEP_PACKAGE_IMPORT.message,
            },
            SOURCES_OF('streams'),
          ],
        },
      ],
    },
  },
  {
    // Applications, tests, benchmarks and tools import the packages by name, as users do.
    files: ['apps/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts', 'tools/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            DEEP_PACKAGE_IMPORT,
            {
              group: ['**/libs/**', '**/libs'],
              message: 'Import the package by name (@nest-streams/streams, /nestjs, /testing).',
            },
          ],
        },
      ],
    },
  },
  {
    // The repo's own tests, benchmarks and tools may also use the documented subpaths
    // `@nest-streams/streams/internals` (e.g. fault-injection hooks) and
    // `@nest-streams/testing/kafka` (the development broker); applications not.
    files: ['test/**/*.ts', 'bench/**/*.ts', 'tools/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '@nest-streams/*/**',
                '!@nest-streams/streams/internals',
                '!@nest-streams/testing/kafka',
              ],
              message: DEEP_PACKAGE_IMPORT.message,
            },
            {
              group: ['**/libs/**', '**/libs'],
              message: 'Import the package by name (@nest-streams/streams, /nestjs, /testing).',
            },
          ],
        },
      ],
    },
  },
  {
    // No import cycle in the packages, and the engine's folders point down only.
    files: ['libs/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.d.ts', '.js'] })],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/extensions': ['.ts', '.js'],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    files: ['libs/streams/src/**/*.ts'],
    ignores: ['**/*.spec.ts', '**/*.contract.ts'],
    plugins: { 'import-x': importX },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: [...LAYER_ZONES, ...RUNTIME_ZONES] }],
    },
  },
  {
    files: ['libs/nestjs/src/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    plugins: { 'import-x': importX },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: NEST_ZONES }],
    },
  },
);
