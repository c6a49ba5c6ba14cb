/**
 * `npm run check:readme`: every TypeScript code block of the READMEs is type-checked against
 * the packages' sources (strict, as a user's project would be), so a snippet cannot rot. A block
 * whose first line names a file (`// src/app.module.ts`) is that file of the document's small
 * project (blocks may import each other); any other block is a module of its own. Blocks of
 * other languages must say theirs (bash, text, yaml, ...). Exits 1 with the compiler's messages,
 * each with the README line of its block.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { blockProblems, CHECKED_LANGUAGES, codeBlocks, snippetPath } from './readme-snippets';

const ROOT = join(__dirname, '..', '..');
const DOCUMENTS = [
  'README.md',
  'libs/streams/README.md',
  'libs/nestjs/README.md',
  'libs/testing/README.md',
];
const OUT = join(ROOT, '.readme-snippets');

rmSync(OUT, { recursive: true, force: true });
const problems: string[] = [];
const origins = new Map<string, string>();
let checked = 0;
for (const document of DOCUMENTS) {
  const blocks = codeBlocks(readFileSync(join(ROOT, document), 'utf8'));
  problems.push(...blockProblems(document, blocks));
  const project = join(OUT, document.replace(/\W+/g, '_'));
  for (const block of blocks.filter((b) => CHECKED_LANGUAGES.has(b.language))) {
    const path = join(project, snippetPath(block));
    mkdirSync(dirname(path), { recursive: true });
    // `export {}` keeps a block without imports a module of its own.
    writeFileSync(path, `${block.code}\nexport {};\n`);
    origins.set(relative(ROOT, path), `${document}:${block.line}`);
    checked++;
  }
}
writeFileSync(
  join(OUT, 'tsconfig.json'),
  JSON.stringify(
    {
      extends: '../tsconfig.json',
      compilerOptions: {
        // Snippets are ES modules with top-level await, as in an application's main file.
        module: 'esnext',
        moduleResolution: 'bundler',
        noEmit: true,
        noUnusedLocals: false,
        noUnusedParameters: false,
        types: ['node', 'jest'],
      },
      // The engine's own declarations of untyped modules (@nxtedition/rocksdb).
      include: ['**/*.ts', '../libs/*/src/**/*.d.ts'],
    },
    null,
    2,
  ),
);
const tsc = spawnSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', OUT], {
  cwd: ROOT,
  encoding: 'utf8',
});
for (const line of `${tsc.stdout}${tsc.stderr}`.split('\n').filter(Boolean)) {
  const file = /^(\S+\.ts)\(/.exec(line)?.[1];
  problems.push(file && origins.has(file) ? `${origins.get(file)} (${line})` : line);
}
if (problems.length > 0 || tsc.status !== 0) {
  process.stderr.write(`${problems.join('\n')}\n`);
  process.exit(1);
}
process.stdout.write(`README code blocks: ${checked} TypeScript blocks type-check\n`);
