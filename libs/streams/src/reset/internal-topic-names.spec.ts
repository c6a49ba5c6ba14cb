import { isInternalTopicOf } from './internal-topic-names';

describe('isInternalTopicOf', () => {
  it("names the application's changelogs, repartition and subscription topics", () => {
    for (const topic of [
      'app-counts-changelog',
      'app-KSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition',
      'app-orders-subscription-registration-topic',
      'app-orders-subscription-response-topic',
      'app-KTABLE-FK-JOIN-SUBSCRIPTION-REGISTRATION-0000000007-topic',
    ]) {
      expect(isInternalTopicOf('app', topic)).toBe(true);
    }
  });

  it("leaves out other applications' topics, input and output topics", () => {
    for (const topic of [
      'app2-counts-changelog',
      'other-app-counts-changelog',
      'app-orders',
      'orders-changelog',
      'app-changelog-archive',
    ]) {
      expect(isInternalTopicOf('app', topic)).toBe(false);
    }
  });
});
