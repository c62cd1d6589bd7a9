export { parseSlashCommand } from './commands';
export { SLASH_COMMANDS } from './list';
