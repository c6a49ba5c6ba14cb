import type { StreamTask } from '@nest-streams/streams/internals';

const registry = new WeakMap<object, readonly StreamTask[]>();

/** @internal Called by a driver when it is made: its tasks, for the parts of this package. */
export function registerDriverTasks(driver: object, tasks: readonly StreamTask[]): void {
  registry.set(driver, tasks);
}

/** The tasks of a driver (one per sub-topology, partition 0), for the parts of this package. */
export function driverTasks(driver: object): readonly StreamTask[] {
  return registry.get(driver) ?? [];
}
