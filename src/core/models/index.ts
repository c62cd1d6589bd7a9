export { EFFORTS, type Effort, type ModelCapabilities, type ThinkingLevel } from './capabilities';
export * from './model';
