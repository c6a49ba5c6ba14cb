import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import type { ProbeSpec, ProbeSpecs } from '../reliability/support/kube-prober';

/** The Kubernetes base of the example application. */
export const KUBE_BASE = join(__dirname, '..', '..', 'deploy', 'kubernetes', 'base');

/** A parsed manifest: its file, kind, name and whole document. */
export interface Manifest {
  readonly file: string;
  readonly kind: string;
  readonly name: string;
  readonly doc: Record<string, unknown>;
}

/**
 * Every YAML document under `dir` (each file may hold several).
 *
 * @throws Error naming the file when a document does not parse.
 */
export function readManifests(dir = KUBE_BASE): Manifest[] {
  const result: Manifest[] = [];
  for (const file of readdirSync(dir)
    .filter((f) => /\.ya?ml$/.test(f))
    .sort()) {
    for (const document of parseAllDocuments(readFileSync(join(dir, file), 'utf8'))) {
      if (document.errors.length > 0) {
        throw new Error(`${file}: ${document.errors.map((e) => e.message).join('; ')}`);
      }
      const doc = document.toJS() as Record<string, unknown> | null;
      if (!doc) continue;
      const metadata = (doc.metadata ?? {}) as { name?: string };
      result.push({ file, kind: String(doc.kind ?? ''), name: String(metadata.name ?? ''), doc });
    }
  }
  return result;
}

/** Reads `path` (dot-separated, numeric parts index arrays) of an object. */
export function at(value: unknown, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>(
      (v, part) =>
        v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[part] : undefined,
      value,
    );
}

/** The application container of the StatefulSet. */
export function appContainer(manifests = readManifests()): Record<string, unknown> {
  const set = manifests.find((m) => m.kind === 'StatefulSet');
  if (!set) throw new Error('no StatefulSet in the Kubernetes base');
  const containers = at(set.doc, 'spec.template.spec.containers') as Record<string, unknown>[];
  return containers[0];
}

function probe(container: Record<string, unknown>, key: string): ProbeSpec {
  const spec = container[key] as Record<string, unknown> | undefined;
  if (!spec) throw new Error(`the container has no ${key}`);
  // Kubernetes' defaults for what a probe leaves out.
  return {
    path: String(at(spec, 'httpGet.path')),
    periodSeconds: Number(spec.periodSeconds ?? 10),
    timeoutSeconds: Number(spec.timeoutSeconds ?? 1),
    failureThreshold: Number(spec.failureThreshold ?? 3),
    successThreshold: Number(spec.successThreshold ?? 1),
  };
}

/** The container's startup, readiness and liveness probes as the kubelet runs them. */
export function probeSpecs(container = appContainer()): ProbeSpecs {
  return {
    startup: probe(container, 'startupProbe'),
    readiness: probe(container, 'readinessProbe'),
    liveness: probe(container, 'livenessProbe'),
  };
}

/** Seconds of the container's preStop sleep (`sleep N`), 0 without one. */
export function preStopSeconds(container = appContainer()): number {
  const command = at(container, 'lifecycle.preStop.exec.command') as string[] | undefined;
  if (!command) return 0;
  if (command[0] !== 'sleep') throw new Error(`unexpected preStop ${JSON.stringify(command)}`);
  return Number(command[1]);
}

/** Where the application container reads its TLS files, moved to a directory of this machine. */
export interface LocalClusterTls {
  /** `CLUSTER_TLS_CERT_FILE`, `_KEY_FILE`, `_CA_FILE` as the manifests set them, under `dir`. */
  readonly env: Record<string, string>;
  /** The same three paths by role: write the PEM files there. */
  readonly files: { readonly cert: string; readonly key: string; readonly ca: string };
}

/**
 * The container's `CLUSTER_TLS_*` variables with the mount path of the volume they point into
 * replaced by `dir`: what a pod of the manifests reads, for a process started on this machine.
 *
 * @throws Error when a variable is missing or points outside every volume mount.
 */
export function localClusterTls(dir: string, container = appContainer()): LocalClusterTls {
  const env = (container.env ?? []) as { name: string; value?: string }[];
  const mounts = (container.volumeMounts ?? []) as { mountPath: string }[];
  const local = (name: string): string => {
    const file = env.find((e) => e.name === name)?.value;
    const mount = mounts.find((m) => file?.startsWith(`${m.mountPath}/`));
    if (!file || !mount) throw new Error(`${name} is not a file of a volume mount`);
    return join(dir, file.slice(mount.mountPath.length + 1));
  };
  const files = {
    cert: local('CLUSTER_TLS_CERT_FILE'),
    key: local('CLUSTER_TLS_KEY_FILE'),
    ca: local('CLUSTER_TLS_CA_FILE'),
  };
  return {
    env: {
      CLUSTER_TLS_CERT_FILE: files.cert,
      CLUSTER_TLS_KEY_FILE: files.key,
      CLUSTER_TLS_CA_FILE: files.ca,
    },
    files,
  };
}
