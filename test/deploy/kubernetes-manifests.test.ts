/**
 * The Kubernetes manifests of deploy/kubernetes/base against the example application's code:
 * they parse, set only variables the application reads, agree on ports, probe paths and the
 * advertised address, mount the state directory on the volume claim, and leave the shutdown
 * (preStop + drain + close) inside the grace period (TLS between the replicas:
 * kubernetes-tls.test.ts). A change on either side that breaks the other fails here.
 */
import 'reflect-metadata';
import { PATH_METADATA } from '@nestjs/common/constants';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { OperationsController } from '../../apps/order-stats/src/operations.controller';
import {
  ORDER_STATS_ENVIRONMENT,
  orderStatsConfig,
} from '../../apps/order-stats/src/order-stats.config';
import { resolveStreamsConfig } from '@nest-streams/streams';
import {
  appContainer,
  at,
  KUBE_BASE,
  preStopSeconds,
  probeSpecs,
  readManifests,
  type Manifest,
} from '../support/kube-manifests';

/** Variables the manifests may set that the application does not read itself. */
const PLATFORM_VARIABLES = ['POD_NAME', 'POD_NAMESPACE', 'NODE_OPTIONS', 'MALLOC_ARENA_MAX'];
/**
 * Memory of the container outside the heap and RocksDB's budget: Node.js itself, buffers, the
 * Kafka clients' sockets and batches, and RocksDB's fixed cost per instance (every store
 * partition and window segment, more of them while a replica is down), which the budget does
 * not bound (README, sizing section; docs/rocksdb.md), in MiB.
 */
const OUTSIDE_BUDGETS_MIB = 512;
/** What closing the client may take (commit, flush, checkpoint; a dynamic member leaves the group). */
const CLOSE_BUDGET_MS = 20_000;

type Env = { name: string; value?: string; valueFrom?: unknown }[];

describe('Kubernetes manifests of the example application', () => {
  const manifests = readManifests();
  const byKind = (kind: string): Manifest[] => manifests.filter((m) => m.kind === kind);
  const one = (kind: string, name?: string): Manifest => {
    const found = byKind(kind).filter((m) => name === undefined || m.name === name);
    expect(found.map((m) => `${m.kind}/${m.name}`)).toHaveLength(1);
    return found[0];
  };
  const set = one('StatefulSet');
  const container = appContainer(manifests);
  const env = (container.env ?? []) as Env;
  const configMap = one('ConfigMap').doc.data as Record<string, string>;
  const value = (name: string): string => {
    const entry = env.find((e) => e.name === name);
    if (entry?.value !== undefined) return entry.value;
    if (configMap[name] !== undefined) return configMap[name];
    throw new Error(`${name} is not set`);
  };
  const ports = (container.ports ?? []) as { name: string; containerPort: number }[];
  const portOf = (name: string) => ports.find((p) => p.name === name)?.containerPort;

  it('lists every manifest in the kustomization, and every manifest parses', () => {
    const kustomization = readManifests().find((m) => m.file === 'kustomization.yaml');
    const resources = at(kustomization?.doc, 'resources') as string[];
    const files = [...new Set(manifests.map((m) => m.file))].filter(
      (f) => f !== 'kustomization.yaml' && !f.endsWith('.example.yaml'),
    );
    expect([...resources].sort()).toEqual(files.sort());
    expect(manifests.map((m) => m.kind).sort()).toEqual(
      [
        'Certificate',
        'Certificate',
        'ConfigMap',
        'Issuer',
        'Issuer',
        'Kustomization',
        'NetworkPolicy',
        'PodDisruptionBudget',
        'Secret',
        'Service',
        'Service',
        'StatefulSet',
      ].sort(),
    );
  });

  it('sets only variables the application reads, and every one it needs', () => {
    const known = new Set<string>([...ORDER_STATS_ENVIRONMENT, ...PLATFORM_VARIABLES]);
    const set = [...env.map((e) => e.name), ...Object.keys(configMap)];
    expect(set.filter((name) => !known.has(name))).toEqual([]);
    for (const required of [
      'KAFKA_BROKERS',
      'APPLICATION_ID',
      'APPLICATION_SERVER',
      'STATE_DIR',
      'PORT',
      'QUERY_PORT',
      'HOST',
      'FORWARDING_SECRET',
      'SHUTDOWN_DRAIN_MS',
      'MANAGEMENT_PORT',
      'CLUSTER_TLS_CERT_FILE',
      'CLUSTER_TLS_KEY_FILE',
      'CLUSTER_TLS_CA_FILE',
    ]) {
      expect(set).toContain(required);
    }
    // The key look-up stays off (DASHBOARD_LOOKUP unset): the page shows no store data.
    expect(set).not.toContain('DASHBOARD_LOOKUP');
    expect(value('HOST')).toBe('0.0.0.0');
    // Never the local-development switch that starts without the cluster secret.
    expect(set).not.toContain('SECURITY_INSECURE');
  });

  it('makes each pod a static group member under its pod name, on the client that has it', () => {
    const id = env.find((e) => e.name === 'GROUP_INSTANCE_ID');
    expect(id?.value).toBeUndefined();
    expect(at(id, 'valueFrom.fieldRef.fieldPath')).toBe('metadata.name');
    // Static membership and kafkajs do not go together: the client is set beside the id.
    expect(env.find((e) => e.name === 'KAFKA_CLIENT')?.value).toBe('@platformatic/kafka');
    // The application and the engine accept a pod's name (`<StatefulSet>-<ordinal>`) as the id.
    // (Without the TLS files: they exist in the pod, from the Secret; see the TLS case below.)
    const literals = Object.fromEntries(
      env
        .filter((e) => e.value !== undefined && !e.name.startsWith('CLUSTER_TLS_'))
        .map((e) => [e.name, e.value]),
    );
    const podName = `${set.name}-2`;
    const config = orderStatsConfig({ ...configMap, ...literals, GROUP_INSTANCE_ID: podName });
    expect(config).toMatchObject({
      kafkaClient: '@platformatic/kafka',
      groupInstanceId: podName,
      sessionTimeoutMs: 30_000,
    });
    const resolved = resolveStreamsConfig({
      applicationId: config.applicationId,
      bootstrapServers: config.brokers,
      kafkaClient: config.kafkaClient,
      groupInstanceId: config.groupInstanceId,
      sessionTimeoutMs: config.sessionTimeoutMs,
    });
    expect(resolved.groupInstanceId).toBe('order-stats-2');
  });

  it('takes the cluster secret from a Secret, never from a literal', () => {
    const secret = env.find((e) => e.name === 'FORWARDING_SECRET');
    expect(secret?.value).toBeUndefined();
    expect(at(secret, 'valueFrom.secretKeyRef.key')).toBe('FORWARDING_SECRET');
    const example = readFileSync(join(KUBE_BASE, 'secret.example.yaml'), 'utf8');
    expect(example).toContain(String(at(secret, 'valueFrom.secretKeyRef.name')));
  });

  it('agrees on ports: container, services, advertised address', () => {
    expect(portOf('http')).toBe(Number(value('PORT')));
    expect(portOf('query')).toBe(Number(value('QUERY_PORT')));
    expect(portOf('management')).toBe(Number(value('MANAGEMENT_PORT')));
    expect(ports.map((p) => p.name).sort()).toEqual(['http', 'management', 'query']);
    const headless = one('Service', String(at(set.doc, 'spec.serviceName')));
    expect(at(headless.doc, 'spec.clusterIP')).toBe('None');
    const servicePorts = (at(headless.doc, 'spec.ports') as { port: number; targetPort: string }[])
      .map((p) => [p.targetPort, p.port])
      .sort();
    expect(servicePorts).toEqual([
      ['http', portOf('http')],
      ['query', portOf('query')],
    ]);
    // Each pod advertises its stable DNS name through the headless Service, on the HTTP port.
    expect(value('APPLICATION_SERVER')).toBe(
      `$(POD_NAME).${headless.name}.$(POD_NAMESPACE).svc.cluster.local:${value('PORT')}`,
    );
    for (const name of ['POD_NAME', 'POD_NAMESPACE']) {
      expect(
        at(
          env.find((e) => e.name === name),
          'valueFrom.fieldRef.fieldPath',
        ),
      ).toBe(name === 'POD_NAME' ? 'metadata.name' : 'metadata.namespace');
    }
    const client = byKind('Service').find((s) => s.name !== headless.name)!;
    expect(
      (at(client.doc, 'spec.ports') as { targetPort: string }[]).map((p) => p.targetPort),
    ).toEqual(['http']);
  });

  it('lets only the application pods reach the query port, and nobody reach an unlisted port', () => {
    const policy = one('NetworkPolicy');
    const labels = at(set.doc, 'spec.template.metadata.labels') as Record<string, string>;
    expect(at(policy.doc, 'spec.podSelector.matchLabels')).toEqual(labels);
    expect(at(policy.doc, 'spec.policyTypes')).toEqual(['Ingress']);
    type Peer = { podSelector?: { matchLabels?: unknown }; namespaceSelector?: unknown };
    type Rule = { from?: Peer[]; ports: { port: string; protocol: string }[] };
    const rules = at(policy.doc, 'spec.ingress') as Rule[];
    const rulesFor = (port: string) => rules.filter((r) => r.ports.some((p) => p.port === port));
    // Every rule names container ports by name, over TCP; every container port has one rule.
    for (const rule of rules) {
      for (const p of rule.ports) {
        expect(ports.map((c) => c.name)).toContain(p.port);
        expect(p.protocol).toBe('TCP');
      }
    }
    for (const port of ports.map((p) => p.name)) expect(rulesFor(port)).toHaveLength(1);
    // Query port: the application's own pods, in its own namespace (no namespaceSelector).
    const [query] = rulesFor('query');
    expect(query.from).toEqual([{ podSelector: { matchLabels: labels } }]);
    expect(query.ports.map((p) => p.port)).toEqual(['query']);
    // Management (metrics, the cluster's layout): a named peer, never everyone.
    const [management] = rulesFor('management');
    expect(management.from?.length).toBeGreaterThan(0);
    for (const peer of management.from ?? []) expect(peer.podSelector?.matchLabels).toBeDefined();
    // The client port is the only one open to every caller.
    expect(
      rules.filter((r) => r.from === undefined).map((r) => r.ports.map((p) => p.port)),
    ).toEqual([['http']]);
  });

  it('serves the operator surfaces on the management port only, the key look-up off', () => {
    const config = orderStatsConfig({ ...configMap, MANAGEMENT_PORT: value('MANAGEMENT_PORT') });
    expect(config.managementPort).toBe(portOf('management'));
    expect(config.dashboardLookup).toBe(false);
    // The management port is not in any Service: reachable by the policy's peers and a port forward.
    for (const service of byKind('Service')) {
      const targets = (at(service.doc, 'spec.ports') as { targetPort: string }[]).map(
        (p) => p.targetPort,
      );
      expect(targets).not.toContain('management');
    }
  });

  it('selects the pods with every selector', () => {
    const labels = at(set.doc, 'spec.template.metadata.labels') as Record<string, string>;
    expect(at(set.doc, 'spec.selector.matchLabels')).toEqual(labels);
    for (const service of byKind('Service'))
      expect(at(service.doc, 'spec.selector')).toEqual(labels);
    expect(at(one('PodDisruptionBudget').doc, 'spec.selector.matchLabels')).toEqual(labels);
  });

  it('probes paths the application serves', () => {
    const routes = Object.getOwnPropertyNames(OperationsController.prototype)
      .map((method) => {
        const handler = (OperationsController.prototype as unknown as Record<string, object>)[
          method
        ];
        return Reflect.getMetadata(PATH_METADATA, handler) as string | undefined;
      })
      .filter((path): path is string => typeof path === 'string')
      .map((path) => `/${path}`);
    const specs = probeSpecs(container);
    expect([specs.startup.path, specs.readiness.path, specs.liveness.path]).toEqual([
      '/health/started',
      '/health/ready',
      '/health/live',
    ]);
    for (const spec of Object.values(specs)) expect(routes).toContain(spec.path);
    for (const key of ['startupProbe', 'readinessProbe', 'livenessProbe']) {
      expect(at(container, `${key}.httpGet.port`)).toBe('http');
      // The client port serves HTTPS with CLUSTER_TLS_* (apps/order-stats/src/main.ts).
      expect(at(container, `${key}.httpGet.scheme`)).toBe('HTTPS');
    }
    // Readiness reacts within seconds; liveness never fires before readiness could.
    expect(specs.readiness.periodSeconds * specs.readiness.failureThreshold).toBeLessThanOrEqual(
      preStopSeconds(container),
    );
    expect(specs.liveness.periodSeconds * specs.liveness.failureThreshold).toBeGreaterThan(
      specs.readiness.periodSeconds * specs.readiness.failureThreshold,
    );
  });

  it('keeps the state directory on the volume claim', () => {
    const claims = at(set.doc, 'spec.volumeClaimTemplates') as { metadata: { name: string } }[];
    const mounts = container.volumeMounts as { name: string; mountPath: string }[];
    const state = mounts.find((m) => m.mountPath === value('STATE_DIR'));
    expect(state).toBeDefined();
    expect(claims.map((c) => c.metadata.name)).toContain(state!.name);
  });

  it('shuts down within the grace period: preStop, drain, close', () => {
    const graceMs = Number(at(set.doc, 'spec.template.spec.terminationGracePeriodSeconds')) * 1000;
    const preStopMs = preStopSeconds(container) * 1000;
    expect(preStopMs).toBeGreaterThan(0);
    expect(preStopMs + Number(value('SHUTDOWN_DRAIN_MS')) + CLOSE_BUDGET_MS).toBeLessThanOrEqual(
      graceMs,
    );
  });

  it('runs as non-root without privileges', () => {
    expect(at(set.doc, 'spec.template.spec.securityContext.runAsNonRoot')).toBe(true);
    expect(at(container, 'securityContext.allowPrivilegeEscalation')).toBe(false);
    expect(at(container, 'securityContext.readOnlyRootFilesystem')).toBe(true);
  });

  it('declares the memory it needs: heap + RocksDB budget + Node.js', () => {
    const mib = (quantity: unknown): number => {
      const match = /^(\d+)(Mi|Gi)$/.exec(String(quantity));
      if (!match) throw new Error(`unsupported memory quantity ${String(quantity)}`);
      return Number(match[1]) * (match[2] === 'Gi' ? 1024 : 1);
    };
    const limitMib = mib(at(container, 'resources.limits.memory'));
    expect(mib(at(container, 'resources.requests.memory'))).toBe(limitMib);
    const heapMib = Number(/--max-old-space-size=(\d+)/.exec(value('NODE_OPTIONS'))?.[1]);
    const rocksdbMib = Number(value('ROCKSDB_MEMORY_MB'));
    expect(heapMib).toBeGreaterThan(0);
    expect(rocksdbMib).toBeGreaterThanOrEqual(16);
    expect(heapMib + rocksdbMib + OUTSIDE_BUDGETS_MIB).toBeLessThanOrEqual(limitMib);
  });

  it("limits glibc's malloc arenas, which otherwise grow with the stores outside the budget", () => {
    expect(value('MALLOC_ARENA_MAX')).toBe('2');
  });
});
