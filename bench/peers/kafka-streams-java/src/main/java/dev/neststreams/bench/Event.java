package dev.neststreams.bench;

/** An input event: {@code {"userId": string, "amount": integer cents}}. */
public record Event(String userId, long amount) {}
