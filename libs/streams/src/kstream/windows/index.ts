export { Window } from './window';
export { TimeWindow } from './time-window';
export { SessionWindow } from './session-window';
export { Windowed } from './windowed';
export { TimeWindows } from './time-windows';
export { SessionWindows } from './session-windows';
export { TimeWindowedSerde } from './time-windowed.serde';
export { SessionWindowedSerde } from './session-windowed.serde';
export {
  mergeSessions,
  sessionMergeBounds,
  type SessionLike,
  type SessionMerge,
} from './session-merge';
