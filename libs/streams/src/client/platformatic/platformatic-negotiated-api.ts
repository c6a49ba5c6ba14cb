import { UnsupportedApiError } from '@platformatic/kafka';

/** What a broker lists of one API it speaks (platformatic's `listApis()`). */
interface BrokerApi {
  readonly apiKey: number;
  readonly minVersion: number;
  readonly maxVersion: number;
}

/** The versions of an API the engine's side speaks. */
export interface ApiVersionRange {
  readonly min: number;
  readonly max: number;
}

/**
 * The newest version of an API that `ours` and a broker speaking `[minVersion, maxVersion]`
 * share; `undefined` when they share none.
 */
export function commonApiVersion(
  ours: ApiVersionRange,
  minVersion: number,
  maxVersion: number,
): number | undefined {
  const version = Math.min(maxVersion, ours.max);
  return version >= ours.min && version >= minVersion ? version : undefined;
}

/** One Kafka API as a {@link NegotiatedApi} asks for it. */
export interface NegotiatedApiSpec<Version, Api> {
  readonly apiKey: number;
  /** The API's name in messages, e.g. `Fetch`. */
  readonly name: string;
  /** What the engine's side needs, said when the broker shares no version. */
  readonly needs: string;
  /** The newest version both sides speak, from the broker's range; `undefined` when none. */
  commonVersion(minVersion: number, maxVersion: number): Version | undefined;
  /** The API at `version`, for platformatic's connections. */
  create(version: Version): Api;
}

/**
 * One API of the cluster at the newest version the engine and the cluster share, as the
 * engine's own platformatic requests (Fetch, Produce) speak it: asked once (`listApis`), and
 * asked again on the next call after a failed ask.
 */
export class NegotiatedApi<Version, Api> {
  private api: Promise<Api> | undefined;

  constructor(
    private readonly client: { listApis(): Promise<readonly BrokerApi[]> },
    private readonly spec: NegotiatedApiSpec<Version, Api>,
  ) {}

  /**
   * The API, once the cluster named its versions.
   *
   * @throws UnsupportedApiError when the broker shares no version of it (a broker too old:
   *   upgrade it); the client's error when it could not ask (the next call asks again).
   */
  get(): Promise<Api> {
    if (this.api === undefined) {
      const { spec } = this;
      const api = this.client.listApis().then((apis) => {
        const broker = apis.find((a) => a.apiKey === spec.apiKey);
        const version = broker && spec.commonVersion(broker.minVersion, broker.maxVersion);
        if (version === undefined) {
          throw new UnsupportedApiError(
            `the broker speaks ${spec.name} v${broker?.minVersion}-v${broker?.maxVersion}; ${spec.needs}`,
          );
        }
        return spec.create(version);
      });
      this.api = api;
      api.catch(() => {
        if (this.api === api) this.api = undefined; // the next call asks again
      });
    }
    return this.api;
  }
}

/**
 * A {@link NegotiatedApi} of one of platformatic's encodings of an API, one per version (the
 * engine speaks the versions of `versions`, from its lowest key to its highest): for APIs whose
 * versions in that range take the same arguments.
 */
export function negotiatedVersions<Api>(
  client: { listApis(): Promise<readonly BrokerApi[]> },
  spec: { apiKey: number; name: string; needs: string; versions: Readonly<Record<number, Api>> },
): NegotiatedApi<number, Api> {
  const known = Object.keys(spec.versions).map(Number);
  const range = { min: Math.min(...known), max: Math.max(...known) };
  return new NegotiatedApi(client, {
    apiKey: spec.apiKey,
    name: spec.name,
    needs: spec.needs,
    commonVersion: (min, max) => commonApiVersion(range, min, max),
    create: (version) => spec.versions[version],
  });
}
