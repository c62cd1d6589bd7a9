export { combineSources, type BuiltInSource } from './combinedSource';
