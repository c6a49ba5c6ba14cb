/** Node name prefixes, exactly as Kafka Streams generates them (`<prefix><10-digit index>`). */
export const NAMES = {
  SOURCE: 'KSTREAM-SOURCE-',
  SINK: 'KSTREAM-SINK-',
  FILTER: 'KSTREAM-FILTER-',
  MAP: 'KSTREAM-MAP-',
  MAPVALUES: 'KSTREAM-MAPVALUES-',
  FLATMAP: 'KSTREAM-FLATMAP-',
  FLATMAPVALUES: 'KSTREAM-FLATMAPVALUES-',
  KEY_SELECT: 'KSTREAM-KEY-SELECT-',
  PEEK: 'KSTREAM-PEEK-',
  FOREACH: 'KSTREAM-FOREACH-',
  PROCESSOR: 'KSTREAM-PROCESSOR-',
  BRANCH: 'KSTREAM-BRANCH-',
  MERGE: 'KSTREAM-MERGE-',
  REPARTITION: 'KSTREAM-REPARTITION-',
  JOIN: 'KSTREAM-JOIN-',
  LEFTJOIN: 'KSTREAM-LEFTJOIN-',
  WINDOWED: 'KSTREAM-WINDOWED-',
  JOINTHIS: 'KSTREAM-JOINTHIS-',
  JOINOTHER: 'KSTREAM-JOINOTHER-',
  OUTERTHIS: 'KSTREAM-OUTERTHIS-',
  OUTEROTHER: 'KSTREAM-OUTEROTHER-',
  OUTERSHARED: 'KSTREAM-OUTERSHARED-',
  AGGREGATE: 'KSTREAM-AGGREGATE-',
  REDUCE: 'KSTREAM-REDUCE-',
  KTABLE_SOURCE: 'KTABLE-SOURCE-',
  KTABLE_FILTER: 'KTABLE-FILTER-',
  KTABLE_MAPVALUES: 'KTABLE-MAPVALUES-',
  KTABLE_TOSTREAM: 'KTABLE-TOSTREAM-',
  KTABLE_JOINTHIS: 'KTABLE-JOINTHIS-',
  KTABLE_JOINOTHER: 'KTABLE-JOINOTHER-',
  KTABLE_MERGE: 'KTABLE-MERGE-',
  KTABLE_SUPPRESS: 'KTABLE-SUPPRESS-',
} as const;

/** The suffix of generated store names: `<prefix>STATE-STORE-<index>`. */
export const STATE_STORE_NAME = 'STATE-STORE-';

/** The suffix of repartition topics. */
export const REPARTITION_TOPIC_SUFFIX = '-repartition';

/** Matches names the builder generated (as opposed to user-given ones). */
export const GENERATED_NAME = /^KSTREAM.*-[0-9]{10}$/;

/** `index` padded to Kafka's ten digits. */
export function indexSuffix(index: number): string {
  return String(index).padStart(10, '0');
}
