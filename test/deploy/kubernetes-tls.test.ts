/**
 * TLS between the replicas as deploy/kubernetes/base wires it, against the example
 * application's code and the module's options: each `CLUSTER_TLS_*` file is a key of one
 * Secret mounted read-only, the cert-manager example issues that Secret for server and client
 * use, and a certificate with the example's names (made with openssl) in files where the mount
 * puts them is read by the application, taken by the module, and matches every pod's advertised
 * host and the client Service.
 */
import { X509Certificate } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkServerIdentity, type PeerCertificate } from 'node:tls';
import { Test } from '@nestjs/testing';
import { StreamsModule, StreamsModuleConfigError } from '@nest-streams/nestjs';
import { orderStatsConfig } from '../../apps/order-stats/src/order-stats.config';
import { TestPki } from '../../tools/tls/test-pki';
import { appContainer, at, localClusterTls, readManifests } from '../support/kube-manifests';

type Env = { name: string; value?: string }[];

describe('TLS between the replicas in the Kubernetes manifests', () => {
  const manifests = readManifests();
  const set = manifests.find((m) => m.kind === 'StatefulSet')!;
  const container = appContainer(manifests);
  const env = (container.env ?? []) as Env;
  const configMap = manifests.find((m) => m.kind === 'ConfigMap')!.doc.data as Record<
    string,
    string
  >;
  const value = (name: string): string => {
    const found = env.find((e) => e.name === name)?.value ?? configMap[name];
    if (found === undefined) throw new Error(`${name} is not set`);
    return found;
  };
  const byKind = (kind: string) => manifests.filter((m) => m.kind === kind);

  it('encrypts traffic between the replicas with mutual TLS from a Secret, as the module takes it', async () => {
    type Mount = { name: string; mountPath: string; readOnly?: boolean };
    type Volume = {
      name: string;
      secret?: { secretName: string; items: { key: string; path: string }[] };
    };
    const mounts = container.volumeMounts as Mount[];
    const volumes = at(set.doc, 'spec.template.spec.volumes') as Volume[];
    // Each CLUSTER_TLS_* file is a key of one Secret, mounted read-only.
    const files = {
      cert: value('CLUSTER_TLS_CERT_FILE'),
      key: value('CLUSTER_TLS_KEY_FILE'),
      ca: value('CLUSTER_TLS_CA_FILE'),
    };
    const mount = mounts.find((m) => files.cert.startsWith(`${m.mountPath}/`));
    expect(mount?.readOnly).toBe(true);
    const volume = volumes.find((v) => v.name === mount?.name);
    const secretName = volume?.secret?.secretName;
    const keyAt = (file: string) =>
      volume?.secret?.items.find((i) => `${mount?.mountPath}/${i.path}` === file)?.key;
    // The keys cert-manager writes (a kubernetes.io/tls Secret and the issuing CA).
    expect([keyAt(files.cert), keyAt(files.key), keyAt(files.ca)]).toEqual([
      'tls.crt',
      'tls.key',
      'ca.crt',
    ]);
    // The cert-manager example issues that Secret, for server and client use.
    const certificate = manifests.find(
      (m) => m.kind === 'Certificate' && at(m.doc, 'spec.secretName') === secretName,
    );
    expect(certificate?.file).toBe('tls-certificate.example.yaml');
    expect(at(certificate?.doc, 'spec.usages')).toEqual(
      expect.arrayContaining(['server auth', 'client auth']),
    );
    expect(at(certificate?.doc, 'spec.isCA')).toBeUndefined();

    // A certificate with the example's names (made with openssl), in files where the Secret's
    // mount puts them: the application reads them, the module takes them, and every pod's
    // advertised host and the client Service match it.
    const dir = mkdtempSync(join(tmpdir(), 'manifests-tls-'));
    try {
      const pki = TestPki.create(join(dir, 'pki'));
      const dnsNames = at(certificate?.doc, 'spec.dnsNames') as string[];
      const issued = pki.issue('order-stats', dnsNames);
      // Where the Secret's mount puts the files, on this machine.
      const local = localClusterTls(join(dir, 'mounted'), container);
      mkdirSync(join(dir, 'mounted'));
      writeFileSync(local.files.cert, issued.cert);
      writeFileSync(local.files.key, issued.key);
      writeFileSync(local.files.ca, pki.ca);
      const config = orderStatsConfig({ ...configMap, ...local.env });
      expect(config.security.clusterTls).toEqual({
        cert: issued.cert,
        key: issued.key,
        ca: pki.ca,
      });
      // The module checks security.tls when it resolves its options (a key that does not
      // belong to the certificate fails the start with StreamsModuleConfigError).
      const moduleWith = (tls: typeof config.security.clusterTls) =>
        Test.createTestingModule({
          imports: [
            StreamsModule.forRoot({
              streams: { applicationId: config.applicationId, bootstrapServers: config.brokers },
              queries: { remote: { port: Number(value('QUERY_PORT')) } },
              client: { start: 'manual' },
              security: { clusterSecret: 'a-secret-of-32-characters-or-so!', tls },
            }),
          ],
        }).compile();
      await (await moduleWith(config.security.clusterTls)).close();
      const stranger = pki.issue('stranger', ['127.0.0.1']);
      await expect(
        moduleWith({ ...config.security.clusterTls!, key: stranger.key }),
      ).rejects.toBeInstanceOf(StreamsModuleConfigError);
      const peer = new X509Certificate(issued.cert);
      expect(peer.verify(new X509Certificate(pki.ca).publicKey)).toBe(true);
      const subject = { subjectaltname: peer.subjectAltName, subject: {} } as PeerCertificate;
      for (const pod of [`${set.name}-0`, `${set.name}-2`]) {
        const advertised = value('APPLICATION_SERVER')
          .replace('$(POD_NAME)', pod)
          .replace('$(POD_NAMESPACE)', 'default');
        expect(
          checkServerIdentity(advertised.slice(0, advertised.lastIndexOf(':')), subject),
        ).toBeUndefined();
      }
      const client = byKind('Service').find((s) => at(s.doc, 'spec.clusterIP') !== 'None')!;
      expect(checkServerIdentity(client.name, subject)).toBeUndefined();
      expect(checkServerIdentity(`${client.name}.default.svc`, subject)).toBeUndefined();
      expect(checkServerIdentity('order-stats.other-namespace.svc', subject)?.message).toMatch(
        /is not in the cert's altnames/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
