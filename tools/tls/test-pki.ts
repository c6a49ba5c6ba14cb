import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A certificate and its key, as files and as PEM text. */
export interface TestCertificate {
  readonly certFile: string;
  readonly keyFile: string;
  readonly cert: string;
  readonly key: string;
}

/**
 * A throw-away certificate authority for tests and local runs, made with `openssl` in `dir`:
 * EC P-256 keys, valid for two days. `issue()` signs a certificate for the given hosts (IP
 * addresses and DNS names, as subject alternative names) usable as server and as client
 * certificate; `keystore()` packs one into a PKCS12 keystore, as a Kafka broker reads it.
 *
 * Throws an Error with openssl's output when openssl is missing or fails.
 */
export class TestPki {
  readonly caFile: string;
  readonly ca: string;
  private readonly caKeyFile: string;

  private constructor(readonly dir: string) {
    this.caFile = join(dir, 'ca.pem');
    this.caKeyFile = join(dir, 'ca.key');
    this.ca = readFileSync(this.caFile, 'utf8');
  }

  /** Creates the CA (its key and self-signed certificate) in `dir`. */
  static create(dir: string, name = 'nest-streams test CA'): TestPki {
    mkdirSync(dir, { recursive: true });
    openssl(dir, [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      'ca.key',
      '-out',
      'ca.pem',
      '-days',
      '2',
      '-subj',
      `/CN=${name}`,
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    ]);
    return new TestPki(dir);
  }

  /** A certificate for `hosts` (e.g. `['127.0.0.1', 'localhost']`), signed by this CA. */
  issue(name: string, hosts: readonly string[]): TestCertificate {
    const keyFile = join(this.dir, `${name}.key`);
    const certFile = join(this.dir, `${name}.pem`);
    const csr = join(this.dir, `${name}.csr`);
    const extensions = join(this.dir, `${name}.ext`);
    const names = hosts.map((h) => (/^[\d.]+$|:/.test(h) ? `IP:${h}` : `DNS:${h}`)).join(',');
    writeFileSync(
      extensions,
      [
        `subjectAltName=${names}`,
        'basicConstraints=CA:FALSE',
        'keyUsage=critical,digitalSignature,keyEncipherment',
        'extendedKeyUsage=serverAuth,clientAuth',
        '',
      ].join('\n'),
    );
    openssl(this.dir, [
      'req',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      keyFile,
      '-out',
      csr,
      '-subj',
      `/CN=${name}`,
    ]);
    openssl(this.dir, [
      'x509',
      '-req',
      '-in',
      csr,
      '-CA',
      this.caFile,
      '-CAkey',
      this.caKeyFile,
      '-CAcreateserial',
      '-out',
      certFile,
      '-days',
      '2',
      '-extfile',
      extensions,
    ]);
    return {
      certFile,
      keyFile,
      cert: readFileSync(certFile, 'utf8'),
      key: readFileSync(keyFile, 'utf8'),
    };
  }

  /** `certificate` (with this CA in its chain) as a PKCS12 keystore file protected by `password`. */
  keystore(certificate: TestCertificate, password: string): string {
    const file = certificate.certFile.replace(/\.pem$/, '.p12');
    openssl(this.dir, [
      'pkcs12',
      '-export',
      '-in',
      certificate.certFile,
      '-inkey',
      certificate.keyFile,
      '-certfile',
      this.caFile,
      '-name',
      'broker',
      '-out',
      file,
      '-passout',
      `pass:${password}`,
    ]);
    return file;
  }
}

function openssl(cwd: string, args: string[]): void {
  const result = spawnSync('openssl', args, { cwd, encoding: 'utf8' });
  if (result.error || result.status !== 0) {
    throw new Error(
      `openssl ${args[0]} failed (is openssl installed?): ${result.error?.message ?? ''}${result.stderr ?? ''}`,
    );
  }
}
