import { seededRandom } from '../../../bench/harness/seeded-random';
import type { CaseStep } from './differential-case';
import type { InputSpec, InputTopicSpec } from './scenario';

const WORDS = ['ox', 'bee', 'cat', 'dingo', 'eel', 'fox', 'gnu', 'heron'];
/** Event time starts here: timestamps stay positive however far back a late record goes. */
const START_MS = 10_000;

/**
 * The seeded input of one case: `records` records over the spec's topics, in event time that
 * mostly advances (by up to `timeStep`, sometimes not at all: equal timestamps), with
 * out-of-order and late records, `null` keys and values where the spec asks, jumps ahead, and
 * wall-clock advances between records. The same scenario name and seed give the same steps.
 */
export function generateSteps(
  scenario: string,
  spec: InputSpec,
  seed: number,
  records: number,
): CaseStep[] {
  const random = seededRandom(seed * 0x9e3779b1 + hashOf(scenario));
  const int = (bound: number) => Math.floor(random() * bound);
  const pickTopic = weightedPicker(spec.topics, random);
  const timeStep = spec.timeStep ?? 20;
  const outOfOrder = spec.outOfOrder ?? 0.2;
  const late = spec.late ?? 0.05;
  const steps: CaseStep[] = [];
  let newest = START_MS;
  let piped = 0;
  while (piped < records) {
    if (random() < (spec.wallClock ?? 0)) {
      steps.push(['@wall', 1 + int(spec.wallClockMs ?? 200)]);
      continue;
    }
    const topic = pickTopic();
    const key = random() < (topic.nullKeys ?? 0) ? null : `k${int(topic.keys)}`;
    const value =
      random() < (topic.tombstones ?? 0)
        ? null
        : topic.values === 'number'
          ? String(int(100))
          : WORDS[int(WORDS.length)];
    const timing = random();
    let timestamp: number;
    if (timing < late) {
      timestamp = newest - int((spec.lateMs ?? 1000) + 1);
    } else if (timing < late + outOfOrder) {
      timestamp = newest - int((spec.disorderMs ?? 150) + 1);
    } else {
      newest += int(timeStep + 1);
      timestamp = newest;
    }
    steps.push([topic.topic, key, value, Math.max(0, timestamp)]);
    piped++;
    if (random() < (spec.jumps ?? 0.01)) newest += spec.jumpMs ?? 120_000;
  }
  return steps;
}

function weightedPicker(
  topics: readonly InputTopicSpec[],
  random: () => number,
): () => InputTopicSpec {
  const total = topics.reduce((sum, t) => sum + (t.weight ?? 1), 0);
  return () => {
    let point = random() * total;
    for (const topic of topics) {
      point -= topic.weight ?? 1;
      if (point < 0) return topic;
    }
    return topics[topics.length - 1];
  };
}

/** A stable 32-bit hash of a scenario's name (FNV-1a), so scenarios get different inputs. */
function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  }
  return hash >>> 0;
}
