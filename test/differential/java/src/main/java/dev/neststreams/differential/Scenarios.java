package dev.neststreams.differential;

import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;

/** Every scenario by name: the names of the TypeScript scenarios (test/differential/scenarios). */
final class Scenarios {
  static final Serde<String> STR = Serdes.String();
  static final Serde<Long> LONG = Serdes.Long();

  static final Map<String, Scenario> ALL = new HashMap<>();

  static {
    ALL.put("stateless", StatelessScenarios::stateless);
    ALL.put("aggregate-by-key", AggregationScenarios::aggregateByKey);
    ALL.put("group-by-repartition", AggregationScenarios::groupByRepartition);
    ALL.put("time-windows", WindowScenarios::timeWindows);
    ALL.put("session-windows", WindowScenarios::sessionWindows);
    ALL.put("windowed-expiry", WindowScenarios::windowedExpiry);
    ALL.put("table-source", TableScenarios::tableSource);
    ALL.put("stream-table-join", TableScenarios::streamTableJoin);
    ALL.put("table-table-join", TableScenarios::tableTableJoin);
    ALL.put("processor-punctuation", ProcessorScenarios::processorPunctuation);
    ALL.put("repartition-join", ProcessorScenarios::repartitionJoin);
    // The new operators of issue #42 (TypeScript twins in scenarios/awaiting-operators).
    ALL.put("stream-stream-join", StreamJoinScenarios::streamStreamJoin);
    ALL.put("sliding-windows", StreamJoinScenarios::slidingWindows);
    ALL.put("emit-on-window-close", StreamJoinScenarios::emitOnWindowClose);
    ALL.put("global-table-join", StreamJoinScenarios::globalTableJoin);
    ALL.put("suppress", TableOperatorScenarios::suppress);
    ALL.put("table-group-by", TableOperatorScenarios::tableGroupBy);
    ALL.put("to-table", TableOperatorScenarios::toTable);
    ALL.put("cogroup", TableOperatorScenarios::cogroup);
    ALL.put("table-outer-join", TableOperatorScenarios::tableOuterJoin);
    ALL.put("foreign-key-join", TableOperatorScenarios::foreignKeyJoin);
    ALL.put("process-values", TableOperatorScenarios::processValues);
  }

  private Scenarios() {}

  /** A generated number value; {@code null} as 1000, so that a call with one shows. */
  static long num(String value) {
    return value == null ? 1000 : Long.parseLong(value);
  }
}
