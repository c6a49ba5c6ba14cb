/**
 * The changelog topic of a store, as Kafka Streams names it:
 * `<application.id>-<storeName>-changelog`.
 */
export function changelogTopicName(applicationId: string, storeName: string): string {
  return `${applicationId}-${storeName}-changelog`;
}
