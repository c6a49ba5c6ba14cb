import { changelogTopicConfig } from './changelog-topics';

describe('changelogTopicConfig', () => {
  it('compacts key-value changelogs, CreateTime timestamps', () => {
    expect(
      changelogTopicConfig({ topic: 'a-s-changelog', kind: 'key-value', partitions: 3 }),
    ).toEqual({
      'cleanup.policy': 'compact',
      'message.timestamp.type': 'CreateTime',
    });
  });

  it('compacts and deletes window and session changelogs after retention + 1 day', () => {
    for (const kind of ['window', 'session'] as const) {
      expect(
        changelogTopicConfig({ topic: 't', kind, partitions: 1, retentionMs: 3_600_000 }),
      ).toEqual({
        'cleanup.policy': 'compact,delete',
        'retention.ms': String(3_600_000 + 86_400_000),
        'message.timestamp.type': 'CreateTime',
      });
    }
  });

  it('lets withLoggingEnabled(topicConfig) add and override configs', () => {
    expect(
      changelogTopicConfig({
        topic: 't',
        kind: 'key-value',
        partitions: 1,
        topicConfig: { 'min.compaction.lag.ms': '1000', 'segment.bytes': '1048576' },
      }),
    ).toMatchObject({ 'cleanup.policy': 'compact', 'min.compaction.lag.ms': '1000' });
  });

  it('needs the retention of window and session stores', () => {
    expect(() => changelogTopicConfig({ topic: 't', kind: 'window', partitions: 1 })).toThrow(
      RangeError,
    );
  });
});
