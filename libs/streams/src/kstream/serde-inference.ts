/**
 * A serde as the DSL's option factories (`Consumed.with`, `Produced.with`, `Grouped.with`...)
 * take it: the data type is inferred from what `deserialize` returns only. Some serdes accept
 * more than they return (`Serdes.Long()` serializes `number | bigint`, returns `number`);
 * inferring from both sides would widen the type to the union and the options would no longer
 * fit the stream they are meant for.
 */
export interface InferredSerde<T> {
  serialize(value: NoInfer<T>, topic?: string): Buffer;
  deserialize(bytes: Buffer, topic?: string): T;
}
