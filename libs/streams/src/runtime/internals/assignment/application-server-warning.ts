/**
 * What an instance says when it shares its application with others but advertises no
 * `application.server`: no instance can then tell where its keys live, and interactive queries
 * answer "not found" for the keys the others hold. `undefined` when there is nothing to say.
 */
export function missingApplicationServerWarning(
  members: number,
  applicationId: string,
  applicationServer: string | undefined,
): string | undefined {
  if (members < 2 || applicationServer) return undefined;
  return `${members} instances share application.id '${applicationId}' but this one has no application.server: interactive queries cannot locate keys held by the other instances; set applicationServer (Kafka Streams' application.server, host:port) on every instance`;
}
