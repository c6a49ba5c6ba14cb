#!/usr/bin/env bash
# Regenerates test/fixtures/murmur2-partitions.json with Kafka's own Java partitioning code
# (kafka-clients, version pinned in pom.xml). Needs Java 17+ and Maven; the first run resolves
# kafka-clients from Maven Central into the local Maven repository.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="$root/test/fixtures/murmur2-partitions.json"
classpath_file="$here/target/classpath.txt"

mvn -q -B -f "$here/pom.xml" compile dependency:build-classpath \
  -Dmdep.outputFile="$classpath_file"

mkdir -p "$(dirname "$out")"
java -cp "$here/target/classes:$(cat "$classpath_file")" \
  dev.neststreams.tools.PartitionerFixture >"$out.tmp"
mv "$out.tmp" "$out"
echo "wrote $out" >&2
