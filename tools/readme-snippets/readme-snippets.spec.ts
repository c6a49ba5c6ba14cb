import { blockProblems, codeBlocks, sectionBlocks, snippetPath } from './readme-snippets';

const markdown = [
  '# Title',
  '```ts',
  '// src/app.module.ts',
  "import { Module } from '@nestjs/common';",
  '```',
  '- a list item:',
  '  ```bash',
  '  npm test',
  '  ```',
  '```',
  'no language',
  '```',
  '```js',
  'var x;',
  '```',
  '```ts',
  'const x = 1;',
  '```',
].join('\n');

describe('README code blocks', () => {
  it('finds every block, its language, line and file', () => {
    const blocks = codeBlocks(markdown);
    expect(blocks.map(({ language, line, file }) => ({ language, line, file }))).toEqual([
      { language: 'ts', line: 2, file: 'src/app.module.ts' },
      { language: 'bash', line: 7, file: undefined },
      { language: '', line: 10, file: undefined },
      { language: 'js', line: 13, file: undefined },
      { language: 'ts', line: 16, file: undefined },
    ]);
    expect(blocks[1].code).toBe('npm test');
    expect(snippetPath(blocks[0])).toBe('src/app.module.ts');
    expect(snippetPath(blocks[4])).toBe('snippets/line-16.ts');
  });

  it('refuses blocks without a language, of an unknown one, and one file twice', () => {
    const twice = codeBlocks('```ts\n// a.ts\n```\n```ts\n// a.ts\n```');
    expect(blockProblems('README.md', [...codeBlocks(markdown), ...twice])).toEqual([
      'README.md:10: a code block without a language (use ts, bash or text)',
      "README.md:13: code block language 'js' is neither type-checked nor plain",
      'README.md:4: a.ts is already the block at line 1',
    ]);
  });

  it("names the file of any language's block by its first line", () => {
    const [tsconfig] = codeBlocks('```jsonc\n// tsconfig.json\n{}\n```');
    expect(tsconfig).toMatchObject({ language: 'jsonc', file: 'tsconfig.json', line: 1 });
    expect(blockProblems('README.md', [tsconfig])).toEqual([]);
  });

  it("finds one section's blocks, with the document's line numbers", () => {
    const doc = [
      '## One',
      '```bash',
      'one',
      '```',
      '## Getting started',
      '```bash',
      'two',
      '```',
      '### A part of it',
      '```ts',
      '// src/main.ts',
      '```',
      '## Three',
      '```bash',
      'three',
      '```',
    ].join('\n');
    expect(sectionBlocks(doc, 'Getting started').map(({ line, code }) => ({ line, code }))).toEqual(
      [
        { line: 6, code: 'two' },
        { line: 10, code: '// src/main.ts' },
      ],
    );
    expect(() => sectionBlocks(doc, 'Missing')).toThrow("no section '## Missing'");
  });

  it('refuses a fence that is never closed', () => {
    expect(() => codeBlocks('text\n```ts\nconst x = 1;')).toThrow(
      'line 2: a code fence is never closed',
    );
  });
});
