export * from './streams.error';
