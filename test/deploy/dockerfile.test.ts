/**
 * deploy/Dockerfile against the code and the Kubernetes manifests, and its runtime stage
 * replayed without a Docker engine: a directory laid out as the final image (production
 * dependencies only, then every file the final stage copies from the build stage), started with
 * the image's command and environment against the suite's broker. A file the image lacks, a
 * development dependency the application needs at run time, a port or path that drifted: red.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ORDER_STATS_ENVIRONMENT } from '../../apps/order-stats/src/order-stats.config';
import { freePort } from '@nest-streams/testing/kafka';
import { argsOf, copiesOf, envOf, parseDockerfile } from '../support/dockerfile';
import { brokers, KafkaTestContext } from '../support/kafka-test-context';
import { appContainer, at, readManifests } from '../support/kube-manifests';
import { waitFor } from '../support/wait-for';

const ROOT = join(__dirname, '..', '..');
const stages = parseDockerfile(join(ROOT, 'deploy', 'Dockerfile'));
const build = stages.find((s) => s.name === 'build')!;
const runtime = stages[stages.length - 1];
const env = envOf(runtime);
const workdir = argsOf(runtime, 'WORKDIR')[0];
const command = JSON.parse(argsOf(runtime, 'CMD')[0]) as string[];

describe('deploy/Dockerfile', () => {
  const manifests = readManifests();
  const set = manifests.find((m) => m.kind === 'StatefulSet')!;
  const container = appContainer(manifests);
  const containerEnv = container.env as { name: string; value?: string }[];
  const podValue = (name: string) => containerEnv.find((e) => e.name === name)?.value;

  it('builds in one stage and runs from another, on the same Node image', () => {
    expect(stages).toHaveLength(2);
    expect(build.from).toMatch(/^node:24-/);
    expect(runtime.from).toBe(build.from);
    expect(copiesOf(runtime).every((c) => c.from === 'build')).toBe(true);
  });

  it('copies every workspace manifest before npm ci, then prunes development dependencies', () => {
    const workspaces = (
      JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
        workspaces: string[];
      }
    ).workspaces;
    const copied = copiesOf(build).flatMap((c) => c.sources);
    for (const workspace of workspaces) expect(copied).toContain(`${workspace}/package.json`);
    const runs = argsOf(build, 'RUN');
    const ci = runs.findIndex((r) => r.startsWith('npm ci'));
    const copyAll = build.instructions.findIndex((i) => i.keyword === 'COPY' && i.args === '. .');
    expect(ci).toBeGreaterThanOrEqual(0);
    expect(build.instructions.findIndex((i) => i.args.startsWith('npm ci'))).toBeLessThan(copyAll);
    expect(runs).toContain('npm run build');
    expect(runs.some((r) => r.startsWith('npm prune --omit=dev'))).toBe(true);
  });

  it('agrees with the manifests and the application: ports, user, state directory, variables', () => {
    expect(argsOf(runtime, 'EXPOSE')[0].split(/\s+/).map(Number)).toEqual([
      Number(env.get('PORT')),
      Number(env.get('QUERY_PORT')),
    ]);
    expect(env.get('PORT')).toBe(podValue('PORT'));
    expect(env.get('QUERY_PORT')).toBe(podValue('QUERY_PORT'));
    expect(env.get('STATE_DIR')).toBe(podValue('STATE_DIR'));
    expect(argsOf(runtime, 'VOLUME')).toEqual([env.get('STATE_DIR')]);
    const [uid, gid] = argsOf(runtime, 'USER')[0].split(':').map(Number);
    expect(uid).toBe(at(set.doc, 'spec.template.spec.securityContext.runAsUser'));
    expect(gid).toBe(at(set.doc, 'spec.template.spec.securityContext.runAsGroup'));
    expect(uid).not.toBe(0);
    const known = new Set<string>([...ORDER_STATS_ENVIRONMENT, 'NODE_ENV', 'MALLOC_ARENA_MAX']);
    expect(env.get('MALLOC_ARENA_MAX')).toBe(podValue('MALLOC_ARENA_MAX'));
    expect([...env.keys()].filter((name) => !known.has(name))).toEqual([]);
    expect(command.slice(0, 1)).toEqual(['node']);
    expect(existsSync(join(ROOT, command[1]))).toBe(true); // built by `npm run build`
  });

  describe('its runtime stage, replayed', () => {
    const ctx = new KafkaTestContext();
    const image = mkdtempSync(join(tmpdir(), 'order-stats-image-'));
    const stateDir = mkdtempSync(join(tmpdir(), 'order-stats-image-state-'));
    afterAll(async () => {
      await ctx.cleanup();
      rmSync(image, { recursive: true, force: true });
      rmSync(stateDir, { recursive: true, force: true });
    });

    it('starts with production dependencies and the copied files only, then stops on SIGTERM', async () => {
      // The build stage's `npm ci` + `npm prune --omit=dev`, as one production install.
      cpSync(join(ROOT, 'package.json'), join(image, 'package.json'));
      cpSync(join(ROOT, 'package-lock.json'), join(image, 'package-lock.json'));
      for (const copy of copiesOf(build).filter(
        (c) => c.from === undefined && c.sources[0] !== '.',
      )) {
        for (const source of copy.sources.filter((s) => s.startsWith('libs/'))) {
          mkdirSync(dirname(join(image, source)), { recursive: true });
          cpSync(join(ROOT, source), join(image, source));
        }
      }
      const install = spawnSync(
        'npm',
        ['ci', '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'],
        { cwd: image, encoding: 'utf8', timeout: 300_000 },
      );
      expect({ status: install.status, stderr: install.stderr.slice(-2000) }).toEqual({
        status: 0,
        stderr: expect.any(String) as unknown,
      });
      // The final stage's copies from the build stage (node_modules and package.json: above).
      for (const copy of copiesOf(runtime)) {
        for (const source of copy.sources) {
          const relative = source.replace(new RegExp(`^${workdir}/`), '');
          if (relative === 'node_modules' || relative === 'package.json') continue;
          const target = join(image, copy.dest);
          mkdirSync(dirname(target), { recursive: true });
          cpSync(join(ROOT, relative), target, { recursive: true });
        }
      }
      expect(existsSync(join(image, 'node_modules', '@nestjs', 'cli'))).toBe(false);

      const input = await ctx.createTopic(ctx.topicName('image'), 3);
      const port = await freePort();
      const queryPort = await freePort();
      const child = spawn(command[0] === 'node' ? process.execPath : command[0], command.slice(1), {
        cwd: image,
        env: {
          PATH: process.env.PATH,
          ...Object.fromEntries(env),
          HOST: '127.0.0.1',
          PORT: String(port),
          QUERY_PORT: String(queryPort),
          STATE_DIR: stateDir,
          KAFKA_BROKERS: brokers().join(','),
          APPLICATION_ID: ctx.applicationId,
          APPLICATION_SERVER: `127.0.0.1:${port}`,
          INPUT_TOPIC: input,
          // What the pod takes from the Secret (the application refuses to start without it).
          FORWARDING_SECRET: 'dockerfile-replay-cluster-secret',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (d: Buffer) => (output += d.toString()));
      child.stderr.on('data', (d: Buffer) => (output += d.toString()));
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>(
        (resolve) => child.once('exit', (code, signal) => resolve({ code, signal })),
      );
      try {
        await waitFor(
          async () =>
            (await fetch(`http://127.0.0.1:${port}/health/started`).catch(() => undefined))
              ?.status === 200,
          120_000,
          'the image started',
          {
            abortIf: () => (child.exitCode !== null ? `it exited:\n${output}` : undefined),
            context: () => output.slice(-3000),
          },
        );
        expect((await fetch(`http://127.0.0.1:${port}/health/live`)).status).toBe(200);
      } finally {
        child.kill('SIGTERM');
      }
      // Nest's shutdown hooks close the client, then re-raise the signal (exit status 143).
      expect(await exited).toEqual({ code: null, signal: 'SIGTERM' });
      expect(output).toContain('STATE NOT_RUNNING');
    }, 600_000);
  });
});
