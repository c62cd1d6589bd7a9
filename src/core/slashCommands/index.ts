export { parseSlashCommand } from './commands';
