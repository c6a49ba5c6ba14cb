export { Window } from '../../windowing/window';
export { TimeWindow } from '../../windowing/time-window';
export { SessionWindow } from '../../windowing/session-window';
export { Windowed } from '../../windowing/windowed';
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
