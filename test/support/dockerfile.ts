import { readFileSync } from 'node:fs';

/** One instruction of a Dockerfile: its keyword (upper case) and its argument text. */
export interface DockerInstruction {
  readonly keyword: string;
  readonly args: string;
}

/** One stage (`FROM ... [AS name]`) and its instructions. */
export interface DockerStage {
  readonly from: string;
  readonly name: string | undefined;
  readonly instructions: DockerInstruction[];
}

/**
 * Parses a Dockerfile into stages: comments dropped, continuation lines joined. Enough of the
 * format for checking a file against the code (no variable expansion but `ARG` defaults in
 * `FROM`).
 */
export function parseDockerfile(path: string): DockerStage[] {
  const lines = readFileSync(path, 'utf8').split('\n');
  const logical: string[] = [];
  let current = '';
  for (const raw of lines) {
    const line = raw.trim();
    if (current === '' && (line === '' || line.startsWith('#'))) continue;
    if (line.endsWith('\\')) {
      current += `${line.slice(0, -1).trim()} `;
      continue;
    }
    logical.push(`${current}${line}`.trim());
    current = '';
  }
  const args = new Map<string, string>();
  const stages: DockerStage[] = [];
  for (const text of logical) {
    const space = text.indexOf(' ');
    const keyword = text.slice(0, space).toUpperCase();
    const rest = text.slice(space + 1).trim();
    if (keyword === 'ARG' && stages.length === 0) {
      const [name, value] = rest.split('=');
      args.set(name, value ?? '');
      continue;
    }
    if (keyword === 'FROM') {
      const [image, as, name] = rest.split(/\s+/);
      const from = image.replace(/\$\{(\w+)\}/g, (_, n: string) => args.get(n) ?? '');
      stages.push({ from, name: as?.toUpperCase() === 'AS' ? name : undefined, instructions: [] });
      continue;
    }
    if (stages.length === 0) throw new Error(`${keyword} before the first FROM`);
    stages[stages.length - 1].instructions.push({ keyword, args: rest });
  }
  return stages;
}

/** The arguments of the stage's instructions with `keyword`. */
export function argsOf(stage: DockerStage, keyword: string): string[] {
  return stage.instructions.filter((i) => i.keyword === keyword).map((i) => i.args);
}

/** `ENV a=1 b=2` instructions of a stage as one map. */
export function envOf(stage: DockerStage): Map<string, string> {
  const env = new Map<string, string>();
  for (const args of argsOf(stage, 'ENV')) {
    for (const pair of args.split(/\s+/)) {
      const eq = pair.indexOf('=');
      env.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
  }
  return env;
}

/** `COPY [--from=stage] src... dest` of a stage: where each copy comes from and goes to. */
export function copiesOf(
  stage: DockerStage,
): { from: string | undefined; sources: string[]; dest: string }[] {
  return argsOf(stage, 'COPY').map((args) => {
    const parts = args.split(/\s+/);
    const flag = parts[0].startsWith('--from=')
      ? parts.shift()!.slice('--from='.length)
      : undefined;
    const dest = parts.pop()!;
    return { from: flag, sources: parts, dest };
  });
}
