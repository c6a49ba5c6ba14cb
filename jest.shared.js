// Shared Jest settings: SWC transpiles TypeScript (type checking is `npm run typecheck`),
// with legacy decorators and metadata as Nest needs them.
/** SWC's options: TypeScript to CommonJS, decorators as Nest needs them. */
const SWC = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    target: 'es2022',
  },
  module: { type: 'commonjs' },
  sourceMaps: 'inline',
};
/** SWC's options for the ES modules of dependencies: to CommonJS, nothing else. */
const SWC_ESM = {
  jsc: { parser: { syntax: 'ecmascript' }, target: 'es2022' },
  module: { type: 'commonjs' },
};

/** @type {import('jest').Config} */
module.exports = {
  rootDir: __dirname,
  testEnvironment: 'node',
  transform: {
    '^.+\\.ts$': ['@swc/jest', SWC],
    // @platformatic/kafka and its own packages (@platformatic/*) ship ES modules only. Node
    // loads them from the engine's CommonJS natively (require(esm)), but Jest's module system
    // does not without --experimental-vm-modules: compile them to CommonJS as the sources are.
    '/node_modules/@platformatic/.+\\.js$': ['@swc/jest', SWC_ESM],
  },
  transformIgnorePatterns: ['/node_modules/(?!@platformatic/)'],
  moduleFileExtensions: ['ts', 'js', 'json'],
  // The packages by name, from their sources (root only: deep imports do not resolve).
  moduleNameMapper: {
    '^@nest-streams/streams$': '<rootDir>/libs/streams/src/index.ts',
    '^@nest-streams/streams/internals$': '<rootDir>/libs/streams/src/internals/index.ts',
    '^@nest-streams/nestjs$': '<rootDir>/libs/nestjs/src/index.ts',
    '^@nest-streams/testing$': '<rootDir>/libs/testing/src/index.ts',
    '^@nest-streams/testing/kafka$': '<rootDir>/libs/testing/src/kafka/index.ts',
    '^@nest-streams/rocksdb$': '<rootDir>/libs/rocksdb/src/index.ts',
  },

  modulePathIgnorePatterns: ['<rootDir>/dist/', '<rootDir>/libs/[^/]+/dist/', '<rootDir>/.kafka/'],
};
