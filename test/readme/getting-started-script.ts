/**
 * The README's Getting started as one bash script, from the section's own blocks in their order:
 * every bash block as written, every block that names its file (`// src/app.module.ts`,
 * `// tsconfig.json`) written to that file where the commands before it left the shell. Two
 * substitutions stand for what a package user's machine has and this one does not: the
 * `@nest-streams/*` packages come from their packed tarballs (they are not on the registry; the
 * engine's `@nest-streams/rocksdb` with the engine), and the instances' ports are free ones.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sectionBlocks, type CodeBlock } from '../../tools/readme-snippets/readme-snippets';

export const README = join(__dirname, '..', '..', 'README.md');
/** The section that must run as written. */
export const SECTION = 'Getting started';

/** The packed packages, by name. */
export interface PackedPackages {
  readonly rocksdb: string;
  readonly streams: string;
  readonly nestjs: string;
  readonly testing: string;
}

/** What the script is made from, and what the test needs to know of the README. */
export interface GettingStartedScript {
  /**
   * The bash script: `::step README.md:<line> <epoch seconds>` on stderr before each block,
   * `::cwd <dir> <epoch seconds>` last, each on a line of its own (a block's output may end
   * without a newline: `curl -i` prints the body as it came).
   */
  readonly script: string;
  /** The blocks it runs or writes, in order. */
  readonly blocks: readonly CodeBlock[];
  /** The records the README produces (`echo '<key>:<value>' | npx nest-streams-kafka produce <topic>`). */
  readonly produced: readonly { topic: string; key: string; value: string }[];
}

const PRODUCE = /^echo '([^':]+):([^']*)' \| npx nest-streams-kafka produce (\S+)$/;

/**
 * The Getting started script, the README's ports replaced (`{ 8080: 24001 }`) and its packages
 * installed from `packages`.
 *
 * @throws Error when the section has a block that is neither bash nor a file, or a file block
 *   naming a path outside the project.
 */
export function gettingStartedScript(
  packages: PackedPackages,
  ports: Readonly<Record<number, number>>,
  markdown: string = readFileSync(README, 'utf8'),
): GettingStartedScript {
  const blocks = sectionBlocks(markdown, SECTION);
  const lines = ['set -euo pipefail'];
  const produced: { topic: string; key: string; value: string }[] = [];
  for (const [n, block] of blocks.entries()) {
    lines.push(`printf '\\n::step README.md:%s %s\\n' ${block.line} "\${EPOCHREALTIME:-}" >&2`);
    if (block.language === 'bash') {
      let code = block.code
        .replace(/@nest-streams\/streams\b/g, `${packages.rocksdb} ${packages.streams}`)
        .replace(/@nest-streams\/nestjs\b/g, packages.nestjs)
        .replace(/@nest-streams\/testing\b/g, packages.testing);
      for (const [from, to] of Object.entries(ports)) {
        code = code.replace(new RegExp(`\\b${from}\\b`, 'g'), String(to));
      }
      for (const line of block.code.split('\n')) {
        const match = PRODUCE.exec(line.replace(/\s+#.*$/, '').trim());
        if (match) produced.push({ key: match[1], value: match[2], topic: match[3] });
      }
      lines.push(code);
    } else if (block.file) {
      if (block.file.startsWith('/') || block.file.split('/').includes('..')) {
        throw new Error(`README.md:${block.line}: ${block.file} is outside the project`);
      }
      const end = `README_BLOCK_${n}_END`;
      lines.push(`mkdir -p "$(dirname '${block.file}')"`);
      lines.push(`cat > '${block.file}' <<'${end}'\n${block.code}\n${end}`);
    } else {
      throw new Error(
        `README.md:${block.line}: a ${block.language} block in ${SECTION} that is neither bash nor a file (name it on its first line)`,
      );
    }
  }
  lines.push(`printf '\\n::cwd %s %s\\n' "$(pwd)" "\${EPOCHREALTIME:-}"`);
  return { script: `${lines.join('\n')}\n`, blocks, produced };
}
