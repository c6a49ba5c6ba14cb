import { missingApplicationServerWarning } from './application-server-warning';

describe('missingApplicationServerWarning', () => {
  it('names the option when several instances share the application without it', () => {
    expect(missingApplicationServerWarning(3, 'orders', undefined)).toBe(
      "3 instances share application.id 'orders' but this one has no application.server: interactive queries cannot locate keys held by the other instances; set applicationServer (Kafka Streams' application.server, host:port) on every instance",
    );
  });

  it('says nothing for a single instance, or one that advertises its endpoint', () => {
    expect(missingApplicationServerWarning(1, 'orders', undefined)).toBeUndefined();
    expect(missingApplicationServerWarning(3, 'orders', 'pod-0.orders:8080')).toBeUndefined();
  });
});
