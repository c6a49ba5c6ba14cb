// Which topics of the cluster are an application's internal topics, by the rule Kafka's
// `kafka-streams-application-reset` deletes them by.

const INTERNAL_SUFFIXES = [
  '-changelog',
  '-repartition',
  '-subscription-registration-topic',
  '-subscription-response-topic',
];
const FK_JOIN_TOPIC = /-KTABLE-FK-JOIN-SUBSCRIPTION-(?:REGISTRATION|RESPONSE)-\d+-topic$/;

/**
 * Whether `topic` is an internal topic of `applicationId`: named `<applicationId>-...` and
 * ending as a changelog, a repartition topic or a foreign-key join's subscription topic does.
 */
export function isInternalTopicOf(applicationId: string, topic: string): boolean {
  if (!topic.startsWith(`${applicationId}-`)) return false;
  return INTERNAL_SUFFIXES.some((suffix) => topic.endsWith(suffix)) || FK_JOIN_TOPIC.test(topic);
}
