// Shared Jest settings: SWC transpiles TypeScript (type checking is `npm run typecheck`),
// with legacy decorators and metadata as Nest needs them.
/** @type {import('jest').Config} */
module.exports = {
  rootDir: __dirname,
  testEnvironment: 'node',
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true },
          target: 'es2022',
        },
        module: { type: 'commonjs' },
        sourceMaps: 'inline',
      },
    ],
  },
  moduleFileExtensions: ['ts', 'js', 'json'],
  // The packages by name, from their sources (root only: deep imports do not resolve).
  moduleNameMapper: {
    '^@nest-streams/streams$': '<rootDir>/libs/streams/src/index.ts',
    '^@nest-streams/streams/internals$': '<rootDir>/libs/streams/src/internals/index.ts',
    '^@nest-streams/nestjs$': '<rootDir>/libs/nestjs/src/index.ts',
    '^@nest-streams/testing$': '<rootDir>/libs/testing/src/index.ts',
    '^@nest-streams/rocksdb$': '<rootDir>/libs/rocksdb/src/index.ts',
  },

  modulePathIgnorePatterns: ['<rootDir>/dist/', '<rootDir>/libs/[^/]+/dist/', '<rootDir>/.kafka/'],
};
