export { wireInputSchema } from './wireSchema';
