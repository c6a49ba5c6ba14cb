package dev.neststreams.differential;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;

/**
 * The Java side of the differential harness: reads one case per line (JSON) on stdin, runs it in
 * Kafka Streams' TopologyTestDriver and writes its result as one line (JSON) on stdout, in the
 * order the cases came. A case that fails gets a result with {@code error} set; the process goes
 * on with the next one. It ends when stdin closes.
 */
public final class DifferentialMain {
  private DifferentialMain() {}

  public static void main(String[] args) throws Exception {
    ObjectMapper mapper = new ObjectMapper();
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    BufferedWriter out =
        new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8));
    String line;
    while ((line = in.readLine()) != null) {
      if (line.isBlank()) continue;
      JsonNode input = mapper.readTree(line);
      out.write(mapper.writeValueAsString(CaseRunner.run(input, mapper)));
      out.newLine();
      out.flush();
    }
  }
}
