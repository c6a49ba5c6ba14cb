import { ignoredStandbysWarning } from './streams-protocol-warning';

describe('ignoredStandbysWarning', () => {
  it('names the group config to set when standbys are configured under the streams protocol', () => {
    expect(
      ignoredStandbysWarning({
        groupProtocol: 'streams',
        numStandbyReplicas: 1,
        applicationId: 'app',
      }),
    ).toBe(
      "numStandbyReplicas 1 has no effect under groupProtocol 'streams': the broker assigns standbys from the group's streams.num.standby.replicas; set it with kafka-configs --alter --entity-type groups --entity-name app --add-config streams.num.standby.replicas=1 (numStandbyReplicas 0 silences this)",
    );
  });

  it('says nothing without standbys, or under the classic protocol', () => {
    expect(
      ignoredStandbysWarning({
        groupProtocol: 'streams',
        numStandbyReplicas: 0,
        applicationId: 'app',
      }),
    ).toBeUndefined();
    expect(
      ignoredStandbysWarning({
        groupProtocol: 'classic',
        numStandbyReplicas: 2,
        applicationId: 'app',
      }),
    ).toBeUndefined();
  });
});
