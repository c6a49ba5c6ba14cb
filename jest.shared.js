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
  moduleNameMapper: {
    '^@nest-streams/streams$': '<rootDir>/libs/streams/src',
    '^@nest-streams/streams/(.*)$': '<rootDir>/libs/streams/src/$1',
    '^@nest-streams/nestjs$': '<rootDir>/libs/nestjs/src',
    '^@nest-streams/nestjs/(.*)$': '<rootDir>/libs/nestjs/src/$1',
    '^@nest-streams/testing$': '<rootDir>/libs/testing/src',
    '^@nest-streams/testing/(.*)$': '<rootDir>/libs/testing/src/$1',
    '^@nest-streams/rocksdb$': '<rootDir>/libs/rocksdb/src',
  },
  modulePathIgnorePatterns: ['<rootDir>/dist/', '<rootDir>/.kafka/'],
};
