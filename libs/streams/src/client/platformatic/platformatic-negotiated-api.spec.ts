import { UnsupportedApiError } from '@platformatic/kafka';
import { negotiatedVersions } from './platformatic-negotiated-api';

describe('negotiatedVersions', () => {
  const versions = { 4: 'v4', 5: 'v5', 6: 'v6' };
  const client = (minVersion: number, maxVersion: number) => ({
    listApis: async () => [{ apiKey: 2, minVersion, maxVersion }],
  });

  it('gives the newest version both the engine and the broker speak', async () => {
    const spec = { apiKey: 2, name: 'ListOffsets', needs: 'v4+', versions };
    await expect(negotiatedVersions(client(1, 5), spec).get()).resolves.toBe('v5');
    await expect(negotiatedVersions(client(1, 11), spec).get()).resolves.toBe('v6');
    await expect(negotiatedVersions(client(4, 4), spec).get()).resolves.toBe('v4');
  });

  it('refuses a broker that shares no version, saying what the engine needs', async () => {
    const spec = { apiKey: 2, name: 'ListOffsets', needs: 'it needs v4+', versions };
    const refused = negotiatedVersions(client(0, 3), spec).get();
    await expect(refused).rejects.toThrow(UnsupportedApiError);
    await expect(refused).rejects.toThrow('the broker speaks ListOffsets v0-v3; it needs v4+');
  });
});
