import { clusterNodeProperties, serverProperties } from './server-properties';

function parse(text: string): Map<string, string> {
  return new Map(
    text
      .trim()
      .split('\n')
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
}

describe('server.properties of the local brokers', () => {
  it('keeps the single-node broker exactly as it was', () => {
    expect(
      serverProperties({ brokerPort: 41001, controllerPort: 41002, logDir: '/tmp/x/logs' }),
    ).toBe(
      [
        'process.roles=broker,controller',
        'node.id=1',
        'controller.quorum.voters=1@127.0.0.1:41002',
        'listeners=PLAINTEXT://127.0.0.1:41001,CONTROLLER://127.0.0.1:41002',
        'advertised.listeners=PLAINTEXT://127.0.0.1:41001',
        'listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT',
        'controller.listener.names=CONTROLLER',
        'inter.broker.listener.name=PLAINTEXT',
        'log.dirs=/tmp/x/logs',
        'num.partitions=1',
        'default.replication.factor=1',
        'min.insync.replicas=1',
        'auto.create.topics.enable=false',
        'delete.topic.enable=true',
        'offsets.topic.replication.factor=1',
        'offsets.topic.num.partitions=10',
        'transaction.state.log.replication.factor=1',
        'transaction.state.log.min.isr=1',
        'transaction.state.log.num.partitions=10',
        'share.coordinator.state.topic.replication.factor=1',
        'share.coordinator.state.topic.min.isr=1',
        'group.initial.rebalance.delay.ms=0',
        'group.min.session.timeout.ms=1000',
        'group.streams.initial.rebalance.delay.ms=0',
        'group.streams.min.session.timeout.ms=1000',
        'group.streams.session.timeout.ms=6000',
        'group.streams.min.heartbeat.interval.ms=500',
        'group.streams.heartbeat.interval.ms=1000',
        'log.retention.check.interval.ms=1000',
        'log.initial.task.delay.ms=0',
        'num.network.threads=2',
        'num.io.threads=4',
        'log.cleaner.threads=1',
        'log.cleaner.dedupe.buffer.size=16777216',
        '',
      ].join('\n'),
    );
  });

  it('replicates every topic on the three nodes of a cluster, two of them in sync', () => {
    const props = parse(
      clusterNodeProperties({
        nodeId: 2,
        brokerPort: 41003,
        controllerPort: 41004,
        logDir: '/tmp/c/data/node-2',
        voters: '1@127.0.0.1:41002,2@127.0.0.1:41004,3@127.0.0.1:41006',
        nodes: 3,
      }),
    );
    expect(Object.fromEntries(props)).toMatchObject({
      'process.roles': 'broker,controller',
      'node.id': '2',
      'controller.quorum.voters': '1@127.0.0.1:41002,2@127.0.0.1:41004,3@127.0.0.1:41006',
      listeners: 'PLAINTEXT://127.0.0.1:41003,CONTROLLER://127.0.0.1:41004',
      'advertised.listeners': 'PLAINTEXT://127.0.0.1:41003',
      'log.dirs': '/tmp/c/data/node-2',
      'default.replication.factor': '3',
      'min.insync.replicas': '2',
      'offsets.topic.replication.factor': '3',
      'transaction.state.log.replication.factor': '3',
      'transaction.state.log.min.isr': '2',
      'share.coordinator.state.topic.replication.factor': '3',
      'share.coordinator.state.topic.min.isr': '2',
    });
    // The rest is the single node's: the tests' timings hold on a cluster too.
    const single = parse(
      serverProperties({ brokerPort: 41003, controllerPort: 41004, logDir: '/tmp/c/data/node-2' }),
    );
    const replication = /replication|insync|min\.isr|node\.id|quorum|listeners/;
    for (const [key, value] of single) {
      if (!replication.test(key)) expect([key, props.get(key)]).toEqual([key, value]);
    }
    expect([...props.keys()].sort()).toEqual([...single.keys()].sort());
  });
});
