/** One fenced code block of a Markdown file. */
export interface CodeBlock {
  /** The fence's language (`ts`, `bash`, ...); empty when the fence has none. */
  readonly language: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  readonly code: string;
  /**
   * The file the block is, when its first line names one (`// src/app.module.ts`,
   * `// tsconfig.json`): blocks of one document that name files form one project, so they may
   * import each other.
   */
  readonly file?: string;
}

/** Languages whose blocks are type-checked. */
export const CHECKED_LANGUAGES = new Set(['ts', 'typescript']);
/** Languages of blocks that are not code to compile (shell, diagrams, output, manifests). */
export const PLAIN_LANGUAGES = new Set([
  'bash',
  'sh',
  'text',
  'yaml',
  'json',
  'jsonc',
  'properties',
]);

/** A first line naming the block's file: `// src/app.module.ts`, `// tsconfig.json`. */
const FILE_COMMENT = /^\/\/ ((?:[\w.-]+\/)*[\w.-]+\.\w+)\s*$/;

/**
 * The fenced code blocks of `markdown` (``` fences, possibly indented in a list).
 *
 * @throws Error naming the line of a fence that is never closed.
 */
export function codeBlocks(markdown: string): CodeBlock[] {
  const lines = markdown.split('\n');
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```(\S*)\s*$/.exec(lines[i]);
    if (!open) continue;
    const indent = open[1].length;
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !/^\s*```\s*$/.test(lines[j])) body.push(lines[j++].slice(indent));
    if (j >= lines.length) throw new Error(`line ${i + 1}: a code fence is never closed`);
    const file = FILE_COMMENT.exec(body[0] ?? '')?.[1];
    blocks.push({ language: open[2], line: i + 1, code: body.join('\n'), file });
    i = j;
  }
  return blocks;
}

/** Where each checked block is written, relative to the project of its document. */
export function snippetPath(block: CodeBlock): string {
  return block.file ?? `snippets/line-${block.line}.ts`;
}

/**
 * The problems of a document's blocks that need no compiler: a fence without a language, a
 * language that is neither checked nor plain, two blocks naming one file.
 */
export function blockProblems(document: string, blocks: readonly CodeBlock[]): string[] {
  const problems: string[] = [];
  const files = new Map<string, number>();
  for (const block of blocks) {
    const where = `${document}:${block.line}`;
    if (!block.language)
      problems.push(`${where}: a code block without a language (use ts, bash or text)`);
    else if (!CHECKED_LANGUAGES.has(block.language) && !PLAIN_LANGUAGES.has(block.language)) {
      problems.push(
        `${where}: code block language '${block.language}' is neither type-checked nor plain`,
      );
    }
    if (block.file && CHECKED_LANGUAGES.has(block.language)) {
      const previous = files.get(block.file);
      if (previous !== undefined) {
        problems.push(`${where}: ${block.file} is already the block at line ${previous}`);
      }
      files.set(block.file, block.line);
    }
  }
  return problems;
}

/**
 * The code blocks of one `## <heading>` section of `markdown` (up to the next `## ` heading), in
 * order, their lines those of the whole document.
 *
 * @throws Error when the document has no such section.
 */
export function sectionBlocks(markdown: string, heading: string): CodeBlock[] {
  const lines = markdown.split('\n');
  const start = lines.indexOf(`## ${heading}`);
  if (start < 0) throw new Error(`no section '## ${heading}'`);
  const next = lines.findIndex((line, i) => i > start && line.startsWith('## '));
  const end = next < 0 ? lines.length : next;
  return codeBlocks(markdown).filter((b) => b.line > start && b.line <= end);
}
